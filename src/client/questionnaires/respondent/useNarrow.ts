import { useMediaQuery } from '@mui/material';

/**
 * A phone-sized width (below 600 px). The app's own `sm` breakpoint is the layout's mobile switch
 * (1027 px), far too wide for choosing between a grid's table and its one-block-per-row form.
 */
export const NARROW_QUERY = '(max-width:599.95px)';
export const useNarrow = () => useMediaQuery(NARROW_QUERY, { noSsr: true });
