// The hub address typed in the app: the password in it is taken out before the address is kept or said,
// also when the text is not a URL at all (a port out of range), so no message can repeat it.
import { describe, expect, it } from 'vitest';
import { splitHubUrl } from '../../electron/core/service/team';

describe('splitHubUrl', () => {
  it('takes the password out of a URL, and keeps it apart', () => {
    expect(splitHubUrl('postgres://ana:s3cret@hub.example.org:5432/arbiter')).toEqual({ address: 'postgres://ana@hub.example.org:5432/arbiter', password: 's3cret' });
  });

  it('never repeats a password from text that is not a URL', () => {
    const { address, password } = splitHubUrl('postgres://ana:s3cret@hub.example.org:99999/arbiter');
    expect(address).not.toContain('s3cret');
    expect(address).toBe('postgres://ana:***@hub.example.org:99999/arbiter');
    expect(password).toBeUndefined();
  });
});
