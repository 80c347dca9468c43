import type { AlertType, FormValues } from '@media/contract';
import { describe, expect, it, vi } from 'vitest';
import { applyServerAction, runServerAction } from './server-actions.ts';

const setup = () => {
  const alerts: { text: string; type: AlertType }[] = [];
  const deps = {
    alert: (alert: { text: string; type: AlertType }) => alerts.push(alert),
    openWindow: vi.fn(),
    screen: { width: 1600, height: 900 },
    setValues: vi.fn<(values: FormValues) => void>(),
  };
  return { alerts, deps };
};

describe('server form actions (spec3 §4)', () => {
  it('open-url opens a popup centred on the screen', () => {
    const { deps } = setup();
    applyServerAction({ action: 'open-url', url: 'https://example.com/auth' }, {}, deps);
    expect(deps.openWindow).toHaveBeenCalledWith(
      'https://example.com/auth',
      '_blank',
      'popup=yes,width=800,height=600,left=400,top=150',
    );
  });

  it('set-options updates the values', () => {
    const { deps } = setup();
    applyServerAction({ action: 'set-options', options: { token: 'abc' } }, { token: '', host: 'h' }, deps);
    expect(deps.setValues).toHaveBeenCalledWith({ token: 'abc', host: 'h' });
  });

  it('display-message shows a message, danger unless told', () => {
    const { deps, alerts } = setup();
    applyServerAction({ action: 'display-message', message: 'Connected' }, {}, deps);
    applyServerAction({ action: 'display-message', message: 'Fine', type: 'success' }, {}, deps);
    expect(alerts).toEqual([
      { text: 'Connected', type: 'danger' },
      { text: 'Fine', type: 'success' },
    ]);
  });

  it('reports an unexpected answer', () => {
    const { deps, alerts } = setup();
    applyServerAction({ action: 'explode' }, {}, deps);
    expect(alerts).toEqual([{ text: 'Unexpected response from server "explode"', type: 'danger' }]);
  });

  it('reports a failed action', async () => {
    const { deps, alerts } = setup();
    await runServerAction('test', {}, () => Promise.reject(new Error('timed out (timeout)')), deps);
    expect(alerts).toEqual([
      { text: 'Unable to perform action "test" - timed out (timeout)', type: 'danger' },
    ]);
  });
});
