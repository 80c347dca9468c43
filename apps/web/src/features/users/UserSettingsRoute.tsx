import { useSearchParams } from 'react-router';
import { Shell } from '../../app/Shell.tsx';
import { UserSettingsPage } from './UserSettingsPage.tsx';

/** A mailed reset or registration link works without a session; the user's own settings need the shell. */
export const UserSettingsRoute = () => {
  const [params] = useSearchParams();
  return params.get('resetToken') ? (
    <UserSettingsPage />
  ) : (
    <Shell>
      <UserSettingsPage />
    </Shell>
  );
};
