import {
  hasCsvExtension,
  MSG_FILE_EXTENSION_WARNING_TITLE,
  MSG_GDPR_WARNING,
  MSG_GDPR_WARNING_TITLE,
} from '@media/contract';
import { confirmDialog } from './dialogs.tsx';

/**
 * The first steps of a CSV import (spec1 §4, §5): the GDPR warning, then the file extension check, which the
 * user may pass anyway. True when the import may go on.
 */
export const confirmCsvImport = async (file: File) => {
  const agreed = await confirmDialog({
    title: MSG_GDPR_WARNING_TITLE,
    message: MSG_GDPR_WARNING,
    confirmLabel: 'I agree',
  });
  if (!agreed) return false;
  return (
    hasCsvExtension(file.name) ||
    confirmDialog({
      title: MSG_FILE_EXTENSION_WARNING_TITLE,
      message: `${file.name} does not end in .csv. Import it anyway?`,
      confirmLabel: 'Import anyway',
    })
  );
};
