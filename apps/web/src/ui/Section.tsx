import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a settings page; `id` is what `element_id_to_jump_to` and in-page links point at. */
export const Section = ({ title, id, children }: { title: string; id: string; children: ReactNode }) => (
  <Paper withBorder p="md" component="section" id={id} aria-labelledby={`${id}-title`}>
    <Title order={3} id={`${id}-title`} mb="sm">
      {title}
    </Title>
    {children}
  </Paper>
);
