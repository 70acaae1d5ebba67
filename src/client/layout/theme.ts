import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** The theme colour (docs/product-rules.md#constants-and-limits): the top bar's, with dark text on it (6.7:1; white on it is 3.1:1, below WCAG's 4.5). */
/** A popper drawn in place (no portal), positioned against the window. */
const IN_PLACE = { disablePortal: true, popperOptions: { strategy: 'fixed' as const } };

export const THEME_COLOUR = '#3599db';
/** Text and icons on the theme colour. */
export const ON_THEME_COLOUR = 'rgba(0, 0, 0, 0.87)';

/**
 * react-admin switches to its mobile layout below the `sm` breakpoint, so `sm` is set to 1027 px:
 * 1024 px plus 3 px of tolerance (docs/product-rules.md#screens-and-routes). The colours that carry text — links, buttons, chips on
 * white, white on them — are the theme colour's and MUI's own hues made dark enough for WCAG AA
 * (4.5:1 both ways, on white and on the form toolbar's grey #e0e0e0): the theme colour itself stays the top bar's.
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  breakpoints: { values: { xs: 0, sm: 1027, md: 1200, lg: 1440, xl: 1920 } },
  palette: {
    primary: { main: '#14609a', contrastText: '#fff' },
    secondary: { main: '#14609a', contrastText: '#fff' },
    warning: { main: '#9a4f00', contrastText: '#fff' },
    info: { main: '#0b5e8e', contrastText: '#fff' },
    success: { main: '#1b5e20', contrastText: '#fff' },
    error: { main: '#b71c1c', contrastText: '#fff' },
    // a view screen shows its record in disabled fields: their text must still be readable (5.7:1)
    text: { primary: 'rgba(0, 0, 0, 0.87)', secondary: 'rgba(0, 0, 0, 0.6)', disabled: 'rgba(0, 0, 0, 0.6)' },
  },
  sidebar: { width: 232, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    MuiTableCell: { styleOverrides: { root: { textAlign: 'left' } } },
    // a tooltip is drawn beside its control, inside the control's landmark, not at the end of the page
    // outside every landmark (axe's region rule; a tooltip stays shown on a focused button, such as
    // the menu button a closed phone drawer gives the focus back to); fixed, so no scrolling box cuts it
    MuiTooltip: { defaultProps: { slotProps: { popper: IN_PLACE } } },
    // the same for an autocomplete's list of choices (a popup that leaves the page usable, unlike a menu)
    MuiAutocomplete: { defaultProps: { slotProps: { popper: IN_PLACE } } },
    // focus visible from the keyboard (WCAG 2.4.7): MUI shows only a faint ripple on buttons, radios and checkboxes
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: '2px solid #14609a', outlineOffset: 2 } } } },
    // react-admin's "skip to main content": its text is white on the near-white page, and on a phone its
    // Button becomes an empty 16 px icon button (no icon given); dark text, and the label shown as text
    ...({
      RaSkipNavigationButton: {
        styleOverrides: {
          root: {
            color: '#14609a',
            '&.MuiIconButton-root': { fontSize: '1rem', borderRadius: 4, padding: '8px 16px', '&::before': { content: 'attr(aria-label)' } },
          },
        },
      },
    } as object),
  },
};
