import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { showAlert } from '../ui/alerts.tsx';

/** How long the element is kept in view while the page's sections are still loading above it. */
const SETTLE_MS = 3000;

/**
 * Scrolls to the element, and again whenever the page grows or shrinks (sections above it loading),
 * until the page settles or the user scrolls by themselves.
 */
const keepInView = (element: HTMLElement) => {
  element.scrollIntoView({ block: 'start' });
  const observer = new ResizeObserver(() => element.scrollIntoView({ block: 'start' }));
  observer.observe(document.body);
  const userEvents = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
  const stop = () => {
    observer.disconnect();
    for (const type of userEvents) window.removeEventListener(type, stop);
  };
  for (const type of userEvents) window.addEventListener(type, stop, { passive: true });
  window.setTimeout(stop, SETTLE_MS);
};

/**
 * spec1 §2: a reload can carry `message` and `element_id_to_jump_to`; the message is shown once, the
 * page scrolls to the element, and both are taken out of the address.
 */
export const ReloadMessage = () => {
  const [params, setParams] = useSearchParams();
  const message = params.get('message');
  const target = params.get('element_id_to_jump_to');

  useEffect(() => {
    if (!message && !target) return;
    if (message) showAlert({ type: 'success', text: message, source: 'reload' });
    if (target) {
      // The page's own content may still be loading; look for the element for a moment.
      let tries = 0;
      const timer = window.setInterval(() => {
        const element = document.getElementById(target);
        tries += 1;
        if (element || tries > 50) {
          window.clearInterval(timer);
          if (element) keepInView(element);
        }
      }, 100);
    }
    const next = new URLSearchParams(params);
    next.delete('message');
    next.delete('element_id_to_jump_to');
    setParams(next, { replace: true });
  }, [message, target, params, setParams]);

  return null;
};
