import { initialValues, validateForm } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { requireEveryField } from './PublishOptionsDialog.tsx';

describe('publish additional-options dialog (spec3 §2)', () => {
  const schema = requireEveryField([
    { name: 'title', type: 'text', label: 'Title' },
    { name: 'description', type: 'textarea', label: 'Description', requiredIf: ['title', 'equal', 'x'] },
    { name: 'privacy', type: 'select', label: 'Privacy', allowedValues: ['', 'public', 'private'] },
  ]);

  it('makes every field required, a select with an empty option too', () => {
    expect(schema.every((item) => item.required === true && item.requiredIf === undefined)).toBe(true);
    expect(validateForm(schema, initialValues(schema)).required).toEqual({
      title: true,
      description: true,
      privacy: true,
    });
  });

  it('is valid (Publish enabled) only once every field has a value', () => {
    expect(validateForm(schema, { title: 'A', description: 'B', privacy: '' }).valid).toBe(false);
    expect(validateForm(schema, { title: 'A', description: 'B', privacy: 'public' }).valid).toBe(true);
  });
});
