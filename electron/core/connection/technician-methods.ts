import type { AppApi, AppStatus, SiteInfo, SwitchTechnicianInput } from '../../contract.ts';
import { AppFailure, ok } from '../result.ts';
import type { SiteHooks } from './connection-methods.ts';
import type { Connection } from './connection.ts';
import type { Technicians } from './technicians.ts';

/**
 * The App API of a shared laptop: who used it, and switching to another technician of the same site.
 * A switch never touches the library (it is the site's, shared) and leaves the previous technician
 * signed in: their work keeps going out under their own name.
 */
export function technicianMethods(
  connection: Connection,
  technicians: Technicians,
  hooks: SiteHooks,
): Pick<AppApi, 'listTechnicians' | 'switchTechnician'> {
  /** Someone whose sign-in is kept here comes back: checked here, so it works while the site is out of reach. */
  function enter(id: number): AppStatus {
    technicians.enter(id);
    connection.changed();
    hooks.connected();
    // The site has the last word on the kept token: a refused one sends them to sign in again.
    void connection.refresh().catch(() => undefined);
    return connection.status();
  }

  async function switchTo(site: SiteInfo, input: SwitchTechnicianInput): Promise<AppStatus> {
    if ('token' in input) {
      const known = technicians.byToken(site, input.token.trim());
      if (known) return enter(known.id);
      await connection.connectWithToken(site.url, input.token.trim(), site.demo);
    } else {
      const known = technicians.byEmail(site, input.email);
      if (known && (await technicians.passwordMatches(known.id, input.password))) return enter(known.id);
      try {
        await connection.signIn(site.url, input.email.trim(), input.password, site.demo);
      } catch (error) {
        if (error instanceof AppFailure && error.code === 'offline') {
          throw new AppFailure(
            'offline',
            known
              ? `The site did not answer, and ${known.username}'s sign-in is not kept on this laptop (or ` +
                  `the password is not the one used here last): sign in again once the site can be reached.`
              : 'The site did not answer: someone new to this laptop signs in once while the site can be reached.',
            undefined,
            { cause: error },
          );
        }
        // Switching back asks a known technician for the password alone: the refusal is the password's.
        if (known && error instanceof AppFailure && error.code === 'unauthorized')
          throw new AppFailure('unauthorized', `The site refused the password of ${known.username}.`, error.details, {
            cause: error,
          });
        throw error;
      }
    }
    hooks.connected();
    return connection.status();
  }

  return {
    listTechnicians: async () => ok(technicians.entries(connection.site)),
    switchTechnician: async (input) => {
      const site = connection.site;
      if (!site) throw new AppFailure('unauthorized', 'Connect to a site first.');
      return ok(await switchTo(site, input));
    },
  };
}
