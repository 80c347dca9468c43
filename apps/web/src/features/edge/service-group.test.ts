import { describe, expect, it } from 'vitest';
import { OWN_GROUP, serviceGroupIdOf, serviceGroupLabel } from './ServiceGroupSelect.tsx';

describe('the service group of a new service (serviceGroupId on create)', () => {
  it('sends no serviceGroupId for a group of its own, and the group id otherwise', () => {
    expect(serviceGroupIdOf(OWN_GROUP)).toBeUndefined();
    expect(serviceGroupIdOf('12')).toBe(12);
  });

  it('names a group by its services and their edge servers', () => {
    expect(
      serviceGroupLabel({
        serviceGroupId: 12,
        services: [
          { id: 12, name: 'Files', edgeServerId: 1, edgeServerName: 'Studio A' },
          { id: 30, name: 'Standby', edgeServerId: 2, edgeServerName: 'Studio B' },
        ],
      }),
    ).toBe('Fail-over with Files (Studio A), Standby (Studio B)');
  });
});
