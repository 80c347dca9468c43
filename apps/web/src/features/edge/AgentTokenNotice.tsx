import { SecretShownOnce } from '../../ui/SecretShownOnce.tsx';

/** The agent token of a just created edge server: shown this once, never again (only its hash is kept). */
export const AgentTokenNotice = ({ token, onDismiss }: { token: string; onDismiss: () => void }) => (
  <SecretShownOnce
    title="Agent token"
    message="This token is shown only once. Copy it now and give it to the edge agent; it cannot be shown again."
    secret={token}
    testId="agent-token"
    dismissLabel="I have copied it"
    onDismiss={onDismiss}
  />
);
