import { Button } from '@mantine/core';
import { forwardRef, useImperativeHandle, useRef } from 'react';

export type CsvFileButtonHandle = { clear: () => void };

/**
 * A button that chooses one CSV file (a hidden file input, named by `fileLabel` for assistive technology);
 * `clear()` forgets the choice, so the same file can be chosen again.
 */
export const CsvFileButton = forwardRef<
  CsvFileButtonHandle,
  { label: string; fileLabel: string; loading?: boolean; onChosen: (file: File | undefined) => void }
>(({ label, fileLabel, loading, onChosen }, ref) => {
  const input = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({
    clear: () => {
      if (input.current) input.current.value = '';
    },
  }));
  return (
    <>
      <Button variant="light" loading={loading} onClick={() => input.current?.click()}>
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label={fileLabel}
        onChange={(event) => onChosen(event.currentTarget.files?.[0])}
      />
    </>
  );
});
