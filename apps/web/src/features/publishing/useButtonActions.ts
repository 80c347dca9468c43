import { PUBLISH_MESSAGES, type PublishButton } from '@media/contract';
import { useState } from 'react';
import { type PublishContext, useSavePublishButton, useTrashPublishButton } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const alert = (type: 'success' | 'danger', text: string) => showAlert({ type, text, source: 'publishing' });

/**
 * The actions of a button that reach the server on their own (spec3 §7): rename ({id, name}), enable or
 * disable ({enabled}) and delete. A new button only changes locally, and deleting it drops it.
 */
export const useButtonActions = (options: {
  ctx: PublishContext;
  button: PublishButton | null;
  name: string;
  /** The button exists only here (new, or still being created). */
  isDraft: () => boolean;
  onDraftRename: (name: string) => void;
  onDraftToggle: (enabled: boolean) => void;
  onDraftDone: () => void;
}) => {
  const { button } = options;
  const update = useSavePublishButton(options.ctx);
  const trash = useTrashPublishButton(options.ctx);
  const [deleting, setDeleting] = useState(false);
  /** The switch shows the change at once, until the server has answered. */
  const [pendingEnabled, setPendingEnabled] = useState<boolean | null>(null);

  const rename = async (next: string) => {
    if (!button) return void options.onDraftRename(next);
    try {
      await update.mutateAsync({ id: button.id, update: { id: button.id, name: next } });
      alert('success', PUBLISH_MESSAGES.nameSaved);
    } catch (error) {
      alert('danger', PUBLISH_MESSAGES.buttonFailed('save', reasonOf(error)));
      throw error;
    }
  };

  const toggle = async (next: boolean) => {
    if (!button) return options.onDraftToggle(next);
    setPendingEnabled(next);
    try {
      await update.mutateAsync({ id: button.id, update: { enabled: next } });
      alert('success', next ? PUBLISH_MESSAGES.saved : PUBLISH_MESSAGES.disabled);
    } catch (error) {
      alert('danger', PUBLISH_MESSAGES.buttonFailed(next ? 'save' : 'disable', reasonOf(error)));
    } finally {
      setPendingEnabled(null);
    }
  };

  const remove = async () => {
    const confirmed = await confirmDialog({
      title: 'Delete publishing button',
      subtitle: `Delete "${options.name}"?`,
      message: PUBLISH_MESSAGES.deleteWarning,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    if (!button || options.isDraft()) return options.onDraftDone();
    setDeleting(true);
    try {
      await trash.mutateAsync(button.id);
      alert('success', PUBLISH_MESSAGES.deleted);
    } catch (error) {
      // spec3 §4: a failed delete clears the deleting flag, then rethrows for the caller.
      setDeleting(false);
      alert('danger', PUBLISH_MESSAGES.buttonFailed('delete', reasonOf(error)));
      throw error;
    }
  };

  return { rename, toggle, remove, deleting, pendingEnabled, toggling: update.isPending };
};
