import type { MouseEvent } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useListContext, useRecordContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate } from 'react-router-dom';
import type { MasterEntity } from '../../shared/master/entity';
import { DeleteRecordButton } from './DeleteRecordButton';
import { masterPath } from './paths';
import { withSchoolYear } from './schoolYear';

/** The edit and delete buttons of a row, as the user's permissions allow. */
export function RowActions({ entity, mayEdit, mayDelete }: { entity: MasterEntity; mayEdit: boolean; mayDelete: boolean }) {
  const record = useRecordContext();
  const { filterValues } = useListContext();
  const navigate = useNavigate();
  const translate = useTranslate();
  if (!record) return null;
  const edit = (e: MouseEvent) => {
    e.stopPropagation();
    navigate(withSchoolYear(masterPath(entity.meta.route, 'edit', record.id), filterValues.schoolYearId));
  };
  return (
    <>
      {mayEdit && (
        <Tooltip title={translate('qe.master.edit')}>
          <IconButton size="small" aria-label={translate('qe.master.edit')} onClick={edit} data-testid="row-edit">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {mayDelete && <DeleteRecordButton meta={entity.meta} />}
    </>
  );
}
