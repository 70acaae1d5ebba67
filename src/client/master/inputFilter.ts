import { useMemo, useRef, type ChangeEvent, type CompositionEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { typeInto, type InputFilter } from '../../shared/input-filters';

/** The props of an <input> that filter what is typed into it (spread on it, or on MUI's slotProps.htmlInput). */
export interface InputFilterProps {
  inputMode?: 'numeric' | 'decimal' | 'tel';
  onFocus?: (e: FocusEvent<HTMLInputElement>) => void;
  onChange?: (e: ChangeEvent<HTMLInputElement>) => void;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
  onCompositionStart?: (e: CompositionEvent<HTMLInputElement>) => void;
  onCompositionEnd?: (e: CompositionEvent<HTMLInputElement>) => void;
}

const caretOf = (el: HTMLInputElement) => {
  try {
    return el.selectionStart;
  } catch {
    return null;
  }
};

const setCaret = (el: HTMLInputElement, at: number) => {
  try {
    el.setSelectionRange(at, at);
  } catch {
    // an input without a caret (type=number)
  }
};

/** Writes a value past React's tracking of the input, so the input event that follows is a change to React. */
function setNativeValue(el: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

/**
 * Filters an input as it is typed into (docs/product-rules.md#input-filters, src/shared/input-filters.ts). The handlers run
 * before the form's own onChange (MUI calls slotProps.htmlInput.onChange first): they put the
 * filtered value and the caret into the input, so the form reads the filtered value and React,
 * finding the input already showing it, leaves the caret where it is. While an IME composes
 * (Chinese, or a phone keyboard's word) nothing is touched: the composed text is filtered when it
 * is committed. A number input (no caret, its value empty while invalid) refuses the keys instead.
 * With no filter it answers no props: the input is left as it is.
 */
export function useInputFilter(filter: InputFilter | null): InputFilterProps {
  // the value before the change being handled: what the input showed when focused, then after each change
  const previous = useRef<string | null>(null);
  const composing = useRef(false);
  return useMemo(() => {
    if (!filter) return {};
    const apply = (el: HTMLInputElement): string => {
      const next = el.value;
      const { value, caret } = typeInto(filter, previous.current ?? '', next, caretOf(el));
      if (value !== next) {
        el.value = value;
        setCaret(el, caret);
      }
      previous.current = value;
      return value;
    };
    return {
      inputMode: filter.inputMode,
      onFocus: (e) => {
        previous.current = e.currentTarget.value;
      },
      onChange: (e) => {
        if (composing.current || (e.nativeEvent as InputEvent).isComposing) return;
        apply(e.target);
      },
      onKeyDown: (e) => {
        const el = e.currentTarget;
        if (el.type !== 'number' || e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey) return;
        if (filter(e.key) === '') e.preventDefault();
      },
      onCompositionStart: () => {
        composing.current = true;
      },
      onCompositionEnd: (e) => {
        composing.current = false;
        const el = e.currentTarget;
        const next = el.value;
        const { value, caret } = typeInto(filter, previous.current ?? '', next, caretOf(el));
        if (value === next) {
          previous.current = next;
          return;
        }
        // the form holds the composed text: a change event gives it the filtered value
        setNativeValue(el, value);
        setCaret(el, caret);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      },
    };
  }, [filter]);
}

/** Runs the filter's handler and then the input's own: for a plain <input> with its own onChange. */
export function chainChange<E>(first: ((e: E) => void) | undefined, then: (e: E) => void) {
  return (e: E) => {
    first?.(e);
    then(e);
  };
}
