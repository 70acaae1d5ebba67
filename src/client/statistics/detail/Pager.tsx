import { TablePagination } from '@mui/material';
import { useTranslate } from '../../i18n/translate';

interface PagerProps {
  total: number;
  /** 0-based */
  page: number;
  size: number;
  sizes: number[];
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}

/** The pages of a list in the statistics detail (texts, respondents): its texts from the message files, wrapping on a phone. */
export function Pager({ total, page, size, sizes, onPage, onSize }: PagerProps) {
  const translate = useTranslate();
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.min(page, Math.max(0, Math.ceil(total / size) - 1))}
      onPageChange={(_e, p) => onPage(p)}
      rowsPerPage={size}
      onRowsPerPageChange={(e) => {
        onSize(Number(e.target.value));
        onPage(0);
      }}
      rowsPerPageOptions={sizes}
      labelRowsPerPage={translate('qe.statistics.perPage')}
      labelDisplayedRows={({ from, to, count }) => translate('qe.statistics.displayedRows', { from, to, count })}
      getItemAriaLabel={(type) => translate(`qe.statistics.pageAction.${type}`)}
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
    />
  );
}
