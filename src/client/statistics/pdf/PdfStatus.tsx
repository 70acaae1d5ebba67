import { Chip, CircularProgress, Tooltip } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { useTranslate } from '../../i18n/translate';
import { preparePdf, usePdfState } from './pdfState';

/**
 * The PDF support state in the top bar (docs/product-rules.md#screens-and-routes): nothing until a PDF screen starts loading the
 * font pack, then loading, ready or failed — failed is a button that tries again.
 */
export function PdfStatus() {
  const translate = useTranslate();
  const state = usePdfState();
  if (state === 'idle') return null;
  const tip = translate(`qe.pdf.tip.${state}`);
  const icon =
    state === 'loading' ? <CircularProgress size={14} color="inherit" aria-hidden /> : state === 'success' ? <PictureAsPdfIcon fontSize="small" /> : <ErrorOutlineIcon fontSize="small" />;
  const retry = state === 'failed' ? () => void preparePdf().catch(() => undefined) : undefined;
  return (
    <Tooltip title={tip}>
      <Chip
        size="small"
        icon={icon}
        label={translate(`qe.pdf.state.${state}`)}
        color={state === 'success' ? 'success' : state === 'failed' ? 'error' : 'default'}
        onClick={retry}
        aria-label={tip}
        role={retry ? 'button' : 'status'}
        data-testid="pdf-status"
        data-state={state}
        sx={{ mx: { xs: 0.5, sm: 1 }, '& .MuiChip-label': { display: { xs: 'none', sm: 'block' } }, ...(state === 'loading' ? { bgcolor: 'rgba(255,255,255,0.85)' } : {}) }}
      />
    </Tooltip>
  );
}
