import { Badge, Button, Group, Modal, Skeleton, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../lib/trpc';
import { useAdminRole } from '../admin-team/role';
import type { VideoConfig } from './types';
import { useAdminFeedback } from './use-admin-mutation';

export function VideosTab() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const videos = useQuery(trpc.admin.landingVideos.queryOptions());
  const [editing, setEditing] = useState<VideoConfig | null>(null);
  if (videos.isLoading) return <Skeleton h={160} />;
  return (
    <>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Title</Table.Th>
            <Table.Th>Video Key</Table.Th>
            <Table.Th>Vimeo Embed</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {videos.data?.map((v) => (
            <Table.Tr key={v.id} data-testid={`video-${v.videoKey}`}>
              <Table.Td>{v.title}</Table.Td>
              <Table.Td>
                <Badge variant="outline">{v.videoKey}</Badge>
              </Table.Td>
              <Table.Td>
                {v.vimeoEmbedCode ? (
                  <Text size="sm" c="green">
                    Configured
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    Not configured
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {can('owner') && (
                  <Button size="xs" variant="light" onClick={() => setEditing(v)}>
                    Edit
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {editing && <EditVideoDialog video={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** Sends the title (the server keeps the current one when blank) and the embed code only when given. */
function EditVideoDialog({ video, onClose }: { video: VideoConfig; onClose: () => void }) {
  const trpc = useTrpc();
  const [title, setTitle] = useState(video.title);
  const [embed, setEmbed] = useState('');
  const feedback = useAdminFeedback();
  const update = useMutation(
    trpc.admin.updateLandingVideo.mutationOptions(feedback('Failed to update video', 'Video updated', onClose)),
  );
  const errors = fieldErrorsOf(update.error);
  return (
    <Modal opened onClose={onClose} title={`Edit ${video.videoKey}`}>
      <Stack>
        <TextInput
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors?.title}
        />
        <Textarea
          label="Vimeo embed code"
          description={
            video.vimeoEmbedCode ? `Current player: ${video.vimeoEmbedCode}` : 'Paste the embed code from Vimeo'
          }
          placeholder='<iframe src="https://player.vimeo.com/video/..."></iframe>'
          value={embed}
          onChange={(e) => setEmbed(e.currentTarget.value)}
          autosize
          minRows={4}
          error={errors?.vimeoEmbedCode}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={update.isPending}
            onClick={() =>
              update.mutate({
                videoId: video.id,
                title: title.trim() || video.title,
                ...(embed.trim() ? { vimeoEmbedCode: embed } : {}),
              })
            }
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
