import { TagsInput, type TagsInputProps } from '@mantine/core';
import { addTags } from '@media/contract';

/** Tags added on Enter or comma; spaces become dashes; unique case-insensitively (spec3). */
export const TagInput = ({
  value,
  onChange,
  ...rest
}: Omit<TagsInputProps, 'value' | 'onChange'> & { value: string[]; onChange: (tags: string[]) => void }) => (
  <TagsInput
    {...rest}
    value={value}
    splitChars={[',']}
    acceptValueOnBlur
    onChange={(next) => onChange(next.reduce<string[]>((tags, tag) => addTags(tags, tag), []))}
  />
);
