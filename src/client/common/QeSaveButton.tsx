import { SaveButton, useFormIsDirty, type SaveButtonProps } from 'react-admin';
import { useFormState } from 'react-hook-form';

/**
 * react-admin's SaveButton, kept enabled while the form validates. A form validated on blur
 * (mode="onBlur") starts validating when a click's press takes the focus from the edited field, and
 * react-admin's button turned disabled under the pointer until validation ended: a short press
 * (a quick click, a tap, a script's click right after typing) was released on a disabled button and
 * nothing happened. The submit itself still waits for validation and shows its errors.
 */
export function QeSaveButton(props: SaveButtonProps) {
  const isDirty = useFormIsDirty();
  const { isSubmitting } = useFormState();
  return <SaveButton {...props} alwaysEnable={isDirty && !isSubmitting && !props.disabled ? true : undefined} />;
}
