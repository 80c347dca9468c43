import { MessagePage } from './MessagePage.tsx';

/** A page of the cloud a role may not use, reached by its address: said plainly, with the way back. */
export const NotForRolePage = ({ page }: { page: string }) => (
  <MessagePage
    title={`${page} is not available to your role`}
    text="Ask an administrator if you need it."
    testId="not-for-role"
  />
);
