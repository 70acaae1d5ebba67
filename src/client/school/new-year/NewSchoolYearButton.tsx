import UpgradeIcon from '@mui/icons-material/Upgrade';
import { Button } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useHolds } from '../../master/access';
import { NEW_YEAR_PATH } from './paths';

/** The school-year list's "new school year" action, for holders of school-year.management. */
export function NewSchoolYearButton() {
  const navigate = useNavigate();
  const mayRoll = useHolds('school-year', 'management');
  if (!mayRoll) return null;
  return (
    <Button label="qe.newYear.button" onClick={() => navigate(NEW_YEAR_PATH)} data-testid="new-school-year">
      <UpgradeIcon />
    </Button>
  );
}
