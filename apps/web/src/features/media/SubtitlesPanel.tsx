import { Button, FileButton, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { type MediaNode, SUBTITLE_MESSAGES, type SubtitleLanguage } from '@media/contract';
import { useSubtitleMutations, useSubtitles } from '../../api/subtitles.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { describeSubtitle, readSubtitleFile, subtitleRows } from './subtitle-files.ts';

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const alert = (type: 'success' | 'danger', text: string) => showAlert({ type, text, source: 'nodes' });

/**
 * The subtitles of a media node, a file per language (what the burn-subtitles publish module draws in):
 * those who may edit the node's metadata upload (SubRip or WebVTT, at most 1 MB) and remove them.
 */
export const SubtitlesPanel = ({ node, mediaId }: { node: MediaNode; mediaId: number }) => {
  const subtitles = useSubtitles(mediaId);
  const { save, remove } = useSubtitleMutations(mediaId);
  const editable = node.access.canLog;

  const upload = async (language: SubtitleLanguage, file: File | null) => {
    if (!file) return;
    const read = readSubtitleFile(new Uint8Array(await file.arrayBuffer()));
    if ('problem' in read) {
      alert('danger', read.problem);
      return;
    }
    try {
      await save.mutateAsync({ language, ...read });
      alert('success', SUBTITLE_MESSAGES.saved(language));
    } catch (error) {
      alert('danger', reasonOf(error));
    }
  };
  const removeLanguage = async (language: SubtitleLanguage, name: string) => {
    const sure = await confirmDialog({
      title: 'Remove subtitles',
      message: `Remove the ${name} subtitles of this media? Publishing buttons that burn them in will fail.`,
      confirmLabel: 'Remove',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (!sure) return;
    try {
      await remove.mutateAsync(language);
      alert('success', SUBTITLE_MESSAGES.removed(language));
    } catch (error) {
      alert('danger', reasonOf(error));
    }
  };

  if (subtitles.isPending) return <Loader size="xs" aria-label="Loading subtitles" />;
  if (subtitles.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {reasonOf(subtitles.error)}
      </Text>
    );
  const busy = save.isPending || remove.isPending;
  return (
    <Stack gap={4} component="section" aria-label="Subtitles">
      <Title order={5}>Subtitles</Title>
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          {subtitleRows(subtitles.data.results).map((row) => (
            <Table.Tr key={row.language} data-language={row.language}>
              <Table.Td w="35%">
                <Text size="sm" fw={500}>
                  {row.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={row.file ? undefined : 'dimmed'}>
                  {describeSubtitle(row)}
                </Text>
              </Table.Td>
              {editable && (
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <FileButton
                      accept=".srt,.vtt,application/x-subrip,text/vtt"
                      onChange={(file) => void upload(row.language, file)}
                      disabled={busy}
                    >
                      {(props) => (
                        <Button
                          {...props}
                          size="compact-xs"
                          variant="default"
                          aria-label={`Upload ${row.name} subtitles`}
                        >
                          {row.file ? 'Replace' : 'Upload'}
                        </Button>
                      )}
                    </FileButton>
                    {row.file && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        disabled={busy}
                        aria-label={`Remove ${row.name} subtitles`}
                        onClick={() => void removeLanguage(row.language, row.name)}
                      >
                        Remove
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
};
