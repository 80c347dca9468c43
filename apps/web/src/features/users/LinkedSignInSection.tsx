import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { formatTableDate, type LinkedIdentity } from '@media/contract';
import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useLinkedIdentities, useLinkIdentity, useUnlinkIdentity } from '../../api/identities.ts';
import { oidcErrorText, providerName } from '../../api/oidc.ts';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { notify } from '../../ui/notify.tsx';
import { RowDangerButton } from '../../ui/RowDangerButton.tsx';

/** The section's anchor: the provider brings the browser back to it after a link. */
export const LINKED_SIGN_IN_ID = 'linked-sign-in';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** How the section names one linked identity: its e-mail at the provider, else its subject there. */
const identityLabel = (identity: LinkedIdentity) => identity.email || identity.subject;

const IdentityRows = ({ identities }: { identities: LinkedIdentity[] }) => {
  const unlink = useUnlinkIdentity();
  const ask = async (identity: LinkedIdentity) => {
    const confirmed = await confirmDialog({
      title: 'Unlink sign-in',
      subtitle: `Unlink ${identityLabel(identity)} at ${providerName(identity.issuer)}?`,
      message: 'You can no longer sign in with it, until you link it again.',
      confirmLabel: 'Unlink',
      danger: true,
    });
    if (!confirmed) return;
    unlink.mutate(identity.id, {
      onSuccess: () => notify({ type: 'success', text: 'The sign-in was unlinked' }),
    });
  };
  return (
    <>
      {unlink.error && (
        <Alert color="red" role="alert">
          {unlink.error.message}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="linked-identities">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Provider</Table.Th>
              <Table.Th>E-mail</Table.Th>
              <Table.Th>Linked</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {identities.map((identity) => (
              <Table.Tr key={identity.id}>
                <Table.Td>{providerName(identity.issuer)}</Table.Td>
                <Table.Td>{identityLabel(identity)}</Table.Td>
                <Table.Td style={NO_WRAP}>{formatTableDate(new Date(identity.createdAt))}</Table.Td>
                <Table.Td style={NO_WRAP}>
                  {identity.lastUsedAt ? formatTableDate(new Date(identity.lastUsedAt)) : 'Never'}
                </Table.Td>
                <Table.Td>
                  <RowDangerButton
                    label="Unlink"
                    ariaLabel={`Unlink ${identityLabel(identity)}`}
                    busy={unlink.isPending && unlink.variables === identity.id}
                    onClick={() => void ask(identity)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
};

/** A link that came back refused (`?oidcError=`, e.g. linked to another user): said until closed. */
const LinkRefused = () => {
  const [params, setParams] = useSearchParams();
  const text = oidcErrorText(params.get('oidcError'));
  if (!text) return null;
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete('oidcError');
    setParams(next, { replace: true });
  };
  return (
    <Alert
      color="red"
      role="alert"
      title="The sign-in was not linked"
      withCloseButton
      closeButtonLabel="Close"
      onClose={close}
      data-testid="link-refused"
    >
      {text}
    </Alert>
  );
};

/**
 * The user's sign-ins at the company's identity provider (issue 32; DESIGN.md "Identity, tokens and the way
 * out"): linked only from here (the provider asks for the password, then brings the browser back to this
 * section) or by an invitation, never by a matching e-mail address; listed, and unlinked with confirmation.
 */
export const LinkedSignInSection = ({ buttonText }: { buttonText: string }) => {
  const identities = useLinkedIdentities();
  const link = useLinkIdentity();
  const location = useLocation();

  // Back from the provider at #linked-sign-in: the section is in view once its list is there.
  const listed = identities.isSuccess;
  useEffect(() => {
    if (listed && window.location.hash === `#${LINKED_SIGN_IN_ID}`)
      document.getElementById(LINKED_SIGN_IN_ID)?.scrollIntoView({ block: 'start' });
  }, [listed]);

  const startLink = () =>
    link.mutate(`${location.pathname}#${LINKED_SIGN_IN_ID}`, {
      onSuccess: ({ url }) => window.location.assign(url),
    });

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Link your sign-in at your organisation's identity provider to use “{buttonText}” on the sign-in page.
        The provider asks for your password when you link it.
      </Text>
      <LinkRefused />
      {identities.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : identities.isError ? (
        <Alert color="red" role="alert">
          Could not load your linked sign-ins: {identities.error.message}
        </Alert>
      ) : identities.data.length === 0 ? (
        <Text size="sm" data-testid="linked-identities-empty">
          No sign-in at your identity provider is linked to your user.
        </Text>
      ) : (
        <IdentityRows identities={identities.data} />
      )}
      <Group>
        <Button variant="light" loading={link.isPending || link.isSuccess} onClick={startLink}>
          Link {buttonText}
        </Button>
      </Group>
      {link.error && (
        <Alert color="red" role="alert">
          {link.error.message}
        </Alert>
      )}
    </Stack>
  );
};
