import { z } from 'zod';
import type { AppStatus, SiteInfo, SwitchTechnicianInput, TechniciansApi } from '../../contract.ts';
import { required } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import { AppFailure } from '../result.ts';
import type { SiteHooks } from './connection-methods.ts';
import type { Connection } from './connection.ts';
import type { Technicians } from './technicians.ts';

export interface TechnicianMethodDeps {
  connection: Connection;
  technicians: Technicians;
  hooks: SiteHooks;
}

const password = z.string().min(1, 'Password is required').max(4096);

/**
 * The App API of a shared laptop: who used it, and switching to another technician of the same site.
 * A switch never touches the library (it is the site's, shared) and leaves the previous technician
 * signed in: their work keeps going out under their own name.
 */
export const technicianMethods = defineMethods<keyof TechniciansApi, TechnicianMethodDeps>({
  listTechnicians: {
    input: z.tuple([]),
    run: ({ connection, technicians }) => technicians.entries(connection.site),
  },
  switchTechnician: {
    input: z.tuple([
      z.union([
        z.object({ email: required('E-mail').max(320), password }).strict(),
        z.object({ token: required('API token').max(4096) }).strict(),
      ]),
    ]),
    run: (deps, input) => {
      const site = deps.connection.site;
      if (!site) throw new AppFailure('unauthorized', 'Connect to a site first.');
      return switchTo(deps, site, input);
    },
  },
});

/** Someone whose sign-in is kept here comes back: checked here, so it works while the site is out of reach. */
function enter({ connection, technicians, hooks }: TechnicianMethodDeps, id: number): AppStatus {
  technicians.enter(id);
  connection.changed();
  hooks.connected();
  // The site has the last word on the kept token: a refused one sends them to sign in again.
  void connection.refresh().catch(() => undefined);
  return connection.status();
}

async function switchTo(deps: TechnicianMethodDeps, site: SiteInfo, input: SwitchTechnicianInput): Promise<AppStatus> {
  const { connection, technicians, hooks } = deps;
  if ('token' in input) {
    const known = technicians.byToken(site, input.token.trim());
    if (known) return enter(deps, known.id);
    await connection.connectWithToken(site.url, input.token.trim(), site.demo);
  } else {
    const known = technicians.byEmail(site, input.email);
    if (known && (await technicians.passwordMatches(known.id, input.password))) return enter(deps, known.id);
    try {
      await connection.signIn(site.url, input.email.trim(), input.password, site.demo);
    } catch (error) {
      if (error instanceof AppFailure && error.code === 'offline') {
        // Which of the two it is, said apart: "(or the password is not the one used here last)" beside a
        // sign-in not kept made a technician doubt a right password (a walk of a refused sign-in).
        throw new AppFailure(
          'offline',
          !known
            ? 'The site did not answer: someone new to this computer signs in once while the site can be reached.'
            : technicians.signInKept(known.id)
              ? `The site did not answer, and this is not the password ${known.username} used on this computer ` +
                'last: offline, only that one can be checked here.'
              : `The site did not answer, and ${known.username}'s sign-in is not kept on this computer (the site ` +
                'refused it, or they signed out): sign in again once the site can be reached.',
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
