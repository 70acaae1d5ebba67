import { defaultTheme, type RaThemeOptions } from 'react-admin';

/**
 * Theme colour #3599db (spec §9). react-admin switches to its mobile layout below the `sm`
 * breakpoint, so `sm` is set to 1027 px: 1024 px plus the spec's 3 px tolerance.
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  breakpoints: { values: { xs: 0, sm: 1027, md: 1200, lg: 1440, xl: 1920 } },
  palette: { primary: { main: '#3599db', contrastText: '#fff' }, secondary: { main: '#2a7ab0' } },
  sidebar: { width: 232, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    MuiTableCell: { styleOverrides: { root: { textAlign: 'left' } } },
  },
};
