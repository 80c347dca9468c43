import { useLocation } from 'react-router';
import { Deferred, lazyNamed } from '../../ui/deferred.tsx';

// The button and its popover load after the shell; they show only once the status is known anyway.
const PageStatus = lazyNamed(async () => (await import('./ContextStatus.tsx')).PageStatus);

/** The page's account (`/accounts/{name or id}/…`) or site (`/site/{id}/…`), if it is in one. */
const pageContext = (pathname: string) => {
  const [, first, second] = pathname.split('/');
  if (!second) return undefined;
  if (first === 'site' && /^\d+$/.test(second)) return { kind: 'site', id: Number(second) } as const;
  if (first === 'accounts')
    return /^\d+$/.test(second)
      ? ({ kind: 'account', id: Number(second) } as const)
      : ({ kind: 'accountName', name: decodeURIComponent(second) } as const);
  return undefined;
};

export type PageContext = NonNullable<ReturnType<typeof pageContext>>;

/** The shell's status button: shown on the pages of an account or site whose status the user may see. */
export const StatusPopover = () => {
  const context = pageContext(useLocation().pathname);
  if (!context) return null;
  return (
    <Deferred fallback={null}>
      <PageStatus context={context} />
    </Deferred>
  );
};
