import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { showAlert } from '../ui/alerts.tsx';

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
          element?.scrollIntoView({ behavior: 'smooth', block: 'start' });
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
