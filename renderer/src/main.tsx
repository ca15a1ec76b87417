import '@mantine/core/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { createRoot } from 'react-dom/client';
import { Badge, createTheme, MantineProvider, Modal, ScrollArea } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { App } from './App';

/**
 * Readable in both colour schemes (WCAG AA contrast): filled buttons one shade darker than Mantine's
 * default; every scroll box reachable with the keyboard; every dialog's close button named; badges
 * in the words' own case (capitals widen "91 of 100" past its badge).
 */
const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  components: {
    ScrollArea: ScrollArea.extend({ defaultProps: { viewportProps: { tabIndex: 0 } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
  },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <MantineProvider defaultColorScheme="auto" theme={theme}>
      {/* Below the header's department switch and Sign out, never over them. */}
      <Notifications position="bottom-right" />
      <App />
    </MantineProvider>,
  );
}
