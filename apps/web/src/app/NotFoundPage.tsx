import { MessagePage } from '../ui/MessagePage.tsx';

export const NotFoundPage = () => (
  <MessagePage title="Page not found" text="There is no page at this address." />
);
