import { useState } from 'react';
import { Button, Modal, Typography } from '@mantine/core';
import { marked } from 'marked';
// The docs' own page, bundled with the app: one text for the docs and the screen.
import page from '../../../docs/file-formats.md?raw';

/** Our own page, rendered once (it is bundled, not something a user sends). */
const html = marked.parse(page, { async: false });

/** Data → File formats: what each import reads, with an example of each (docs/file-formats.md). */
export function FileFormatsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="subtle" size="compact-sm" onClick={() => setOpen(true)} data-testid="file-formats">
        File formats
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="File formats" size="xl">
        <Typography data-testid="file-formats-page">
          <div dangerouslySetInnerHTML={{ __html: html }} />
        </Typography>
      </Modal>
    </>
  );
}
