import { useRef, type ChangeEvent } from 'react';
import { Button, type ButtonProps } from '@mui/material';

export interface FileButtonProps extends Omit<ButtonProps, 'onChange' | 'onClick' | 'component'> {
  /** the file types offered (the input's accept) */
  accept: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** the data-testid of the file input (tests give it files directly) */
  inputTestId?: string;
}

/**
 * A button that opens the browser's file chooser: a real <button> (a label given role="button" is
 * not a button to assistive technology, axe's aria-allowed-role) that clicks a hidden file input.
 */
export function FileButton({ accept, onChange, inputTestId, children, ...button }: FileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input ref={input} hidden type="file" accept={accept} onChange={onChange} data-testid={inputTestId} />
    </>
  );
}
