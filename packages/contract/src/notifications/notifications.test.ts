import { describe, expect, it } from 'vitest';
import { renderNotificationText } from './notifications.ts';

describe('notification text (spec2 §8)', () => {
  it('renders the placeholders as the spec says', () => {
    expect(renderNotificationText('pbnotconn1 Studio A pbnotconn2')).toBe(
      'Edge server Studio A not connected',
    );
    expect(renderNotificationText('mediaexpired: clip 12')).toBe('Media has expired: clip 12');
    expect(renderNotificationText('nothing to replace in pbnotconn10')).toBe(
      'nothing to replace in pbnotconn10',
    );
  });
});
