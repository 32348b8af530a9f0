import { DataTable } from '@dn/ui';
import { Badge, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';
import type { VideoConfig } from './types';

export function VideosTab() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const videos = useQuery(trpc.admin.landingVideos.queryOptions());
  const [editing, setEditing] = useState<VideoConfig | null>(null);
  return (
    <>
      <DataTable
        rows={videos.data ?? []}
        rowKey={(v) => v.id}
        rowTestId={(v) => `video-${v.videoKey}`}
        cards
        query={videos}
        empty="No landing videos."
        columns={[
          { header: 'Title', cell: (v) => v.title },
          { header: 'Video Key', cell: (v) => <Badge variant="outline">{v.videoKey}</Badge> },
          {
            header: 'Vimeo Embed',
            cell: (v) =>
              v.vimeoEmbedCode ? (
                <Text size="sm" c="green">
                  Configured
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  Not configured
                </Text>
              ),
          },
          {
            header: '',
            cell: (v) =>
              can('owner') && (
                <Button size="xs" variant="light" onClick={() => setEditing(v)}>
                  Edit
                </Button>
              ),
          },
        ]}
      />
      {editing && <EditVideoDialog video={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** Sends the title (the server keeps the current one when blank) and the embed code only when given. */
function EditVideoDialog({ video, onClose }: { video: VideoConfig; onClose: () => void }) {
  const [title, setTitle] = useState(video.title);
  const [embed, setEmbed] = useState('');
  const update = useAdminMutation(ADMIN_MUTATIONS.updateVideo, { onSuccess: onClose });
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
