import { MantineProvider } from '@mantine/core';
import type { FormSchema, FormValues } from '@media/contract';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DynamicForm } from './DynamicForm.tsx';

/** The web tests run in node without a DOM, so the engine is checked through its server-rendered markup. */
const render = (schema: FormSchema, values: FormValues, serverErrors?: Record<string, string>) =>
  renderToString(
    createElement(
      MantineProvider,
      null,
      createElement(DynamicForm, { schema, values, onChange: () => {}, serverErrors }),
    ),
  );

const labelFor = (html: string, label: string) => {
  const match = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}`).exec(html);
  return match?.[1];
};

describe('DynamicForm markup', () => {
  it('ties each label to its input', () => {
    const html = render(
      [
        { name: 'title', type: 'text', label: 'Title' },
        { name: 'notes', type: 'textarea', label: 'Notes' },
        { name: 'rate', type: 'integer', label: 'Rate' },
        { name: 'format', type: 'select', label: 'Format', allowedValues: ['mp4'] },
      ],
      { title: '', notes: '', rate: 1, format: 'mp4' },
    );
    for (const label of ['Title', 'Notes', 'Rate', 'Format']) {
      const id = labelFor(html, label);
      expect(id, label).toBeTruthy();
      expect(html).toContain(`id="${id}"`);
    }
  });

  it('shows the select placeholder and a deprecated option', () => {
    const html = render(
      [{ name: 'format', type: 'select', label: 'Format', allowedValues: ['mp4', 'mov'] }],
      {
        format: 'avi',
      },
    );
    expect(html).toContain('--- Select an option ---');
    expect(html).toContain('avi (deprecated option)');
  });

  it('shows the character counter from 80% of maxLength', () => {
    const schema = [{ name: 'title', type: 'text', label: 'Title', maxLength: 10 }];
    expect(render(schema, { title: 'abcdefgh' })).toContain('8 / 10');
    expect(render(schema, { title: 'abc' })).not.toContain('3 / 10');
  });

  it('shows a server-flagged field with the server message', () => {
    const html = render(
      [{ name: 'host', type: 'text', label: 'Host' }],
      { host: 'x' },
      { host: 'Host unreachable' },
    );
    expect(html).toContain('Host unreachable');
  });

  it('hides a field whose showWhen is false, and names an unknown type', () => {
    const html = render(
      [
        { name: 'mode', type: 'text', label: 'Mode' },
        { name: 'port', type: 'integer', label: 'Port number', showWhen: "mode == 'ftp'" },
        { name: 'odd', type: 'slider', label: 'Odd' },
      ],
      { mode: 'web', port: 21 },
    );
    expect(html).not.toContain('Port number');
    expect(html).toContain('slider has not been implemented');
  });
});
