import { Alert, Group, Loader, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import {
  PASSWORD_RULE_MESSAGES,
  PASSWORD_RULE_NAMES,
  type PasswordRuleName,
  type PasswordRules,
} from '@media/contract';
import { usePasswordRules, useUpdatePasswordRules } from '../../api/users.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';

const COUNTED: ReadonlySet<PasswordRuleName> = new Set([
  'min_length',
  'min_lowercase_num',
  'min_uppercase_num',
  'min_digit_num',
]);

const RULE_LABELS: Record<PasswordRuleName, string> = {
  min_length: 'Minimum length',
  min_lowercase_num: 'Minimum lowercase letters',
  min_uppercase_num: 'Minimum uppercase letters',
  min_digit_num: 'Minimum digits',
  does_not_contain_username: 'Must not contain the user name',
  not_empty: 'Must not be empty',
};

export const PasswordRulesPage = () => {
  const rules = usePasswordRules();
  if (rules.isPending) return <Loader aria-label="Loading" />;
  if (rules.isError)
    return <Alert color="red">An error occurred while fetching the data: {rules.error.message}</Alert>;
  return <PasswordRulesForm initial={rules.data} />;
};

const PasswordRulesForm = ({ initial }: { initial: PasswordRules }) => {
  const update = useUpdatePasswordRules();
  const form = useSaveState(initial, { save: (rules) => update.mutateAsync(rules) });
  const set = (name: PasswordRuleName, change: Partial<PasswordRules[PasswordRuleName]>) =>
    form.setValue({ ...form.value, [name]: { ...form.value[name], ...change } });

  const save = async () => {
    try {
      await form.save();
      showAlert({ type: 'success', text: 'Changes saved', source: 'passwordRules' });
    } catch (error) {
      showAlert({
        type: 'danger',
        text: `An error occurred while submitting the data: ${error instanceof Error ? error.message : 'unknown'}`,
      });
    }
  };

  return (
    <Stack maw={640}>
      <div>
        <Title order={2}>Password rules</Title>
        <Text c="dimmed" size="sm">
          Every new password must meet the enabled rules; users see them while they choose a password.
        </Text>
      </div>
      <Paper withBorder p="md">
        <Stack gap="sm">
          {PASSWORD_RULE_NAMES.map((name) => (
            <Group key={name} justify="space-between" wrap="nowrap">
              <Switch
                label={RULE_LABELS[name]}
                description={
                  form.value[name].enabled ? PASSWORD_RULE_MESSAGES[name](form.value[name].value) : 'Off'
                }
                checked={form.value[name].enabled}
                onChange={(e) => set(name, { enabled: e.currentTarget.checked })}
              />
              {COUNTED.has(name) && (
                <NumberInput
                  aria-label={`${RULE_LABELS[name]} value`}
                  w={90}
                  min={0}
                  max={128}
                  clampBehavior="strict"
                  allowDecimal={false}
                  disabled={!form.value[name].enabled}
                  value={form.value[name].value}
                  onChange={(v) => set(name, { value: typeof v === 'number' ? v : Number(v) || 0 })}
                />
              )}
            </Group>
          ))}
        </Stack>
      </Paper>
      <FormButtons state={form.state} dirty={form.dirty} onSave={save} onDiscard={form.discard} />
    </Stack>
  );
};
