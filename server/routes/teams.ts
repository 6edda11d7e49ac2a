import type { Context } from 'hono';
import { z } from 'zod';
import { isAdmin, requirePrivilege, requireUser, viewerOf } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { parseInteger, parseOrder, parsePaging } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import {
  addMembers,
  canSeeTeam,
  createTeam,
  getTeam,
  isMember,
  listTeams,
  members,
  removeMembers,
  teamSummary,
  type TeamRow,
} from '../teams/repo.ts';
import { recordMutation } from '../testing/audit.ts';
import { requireExistingUsers } from '../users/validate.ts';

const userids = z.array(z.number().int().positive());
const newTeam = z.object({
  name: z.string().trim().min(1),
  owner: z.number().int().positive(),
  privacy: z.enum(['private', 'public']).default('public'),
  members: userids.default([]),
  description: z.string().optional(),
});
const memberChange = z.object({ add_userids: userids.optional(), remove_userids: userids.optional() });

/** Reference 4.2. Admins create teams; admins and the team's owner manage members; a member may leave. */
export const teamsRoutes: RouteModule = (api, ctx) => {
  const visibleTeam = (c: Context<AppEnv>): TeamRow => {
    const teamid = routeId(c.req.param('teamid'));
    const team = teamid === null ? undefined : getTeam(ctx.db, teamid);
    if (!team || !canSeeTeam(ctx.db, team, viewerOf(c))) throw notFound('No such team');
    return team;
  };
  const managedTeam = (c: Context<AppEnv>): TeamRow => {
    const user = requireUser(c);
    const team = visibleTeam(c);
    if (!isAdmin(user) && team.owner !== user.userid)
      throw forbidden('Only the team owner or an admin manages its members');
    return team;
  };

  api.post('/teams', async (c) => {
    requirePrivilege(c, 'Admin');
    const body = await readBody(c, newTeam);
    requireExistingUsers(ctx.db, [body.owner], () => 'owner');
    requireExistingUsers(ctx.db, body.members, (index) => `members[${index}]`);
    const team = ctx.db.transaction(() => {
      const created = createTeam(ctx.db, body, ctx.clock.now());
      recordMutation(ctx, c, 'team', created.teamid);
      return created;
    })();
    return c.json(teamSummary(ctx.db, team), 201);
  });

  api.get('/teams', (c) => {
    const paging = parsePaging((name) => c.req.query(name));
    const since = parseInteger(c.req.query('newMemberSince'), 'newMemberSince', { min: 0 }) ?? null;
    const teams = listTeams(ctx.db, { ...paging, newMemberSince: since, viewer: viewerOf(c) });
    return c.json(teams.map((team) => teamSummary(ctx.db, team)));
  });

  api.get('/teams/:teamid/attributes', (c) => c.json(teamSummary(ctx.db, visibleTeam(c))));

  api.get('/teams/:teamid', (c) => {
    const order = parseOrder(c.req.query('order'));
    return c.json(members(ctx.db, visibleTeam(c).teamid, order, siteOrigin(c)));
  });

  api.patch('/teams/:teamid/users', async (c) => {
    const team = managedTeam(c);
    const body = await readBody(c, memberChange);
    if (!body.add_userids && !body.remove_userids) {
      throw invalid('add_userids', 'missing_field', 'add_userids or remove_userids is required');
    }
    requireExistingUsers(ctx.db, body.add_userids ?? [], (index) => `add_userids[${index}]`);
    ctx.db.transaction(() => {
      addMembers(ctx.db, team.teamid, body.add_userids ?? [], ctx.clock.now());
      removeMembers(ctx.db, team.teamid, body.remove_userids ?? []);
      recordMutation(ctx, c, 'team', team.teamid);
    })();
    return c.json(members(ctx.db, team.teamid, 'ASC', siteOrigin(c)));
  });

  api.delete('/teams/:teamid/users/:userid', (c) => {
    const user = requireUser(c);
    const team = visibleTeam(c);
    const userid = routeId(c.req.param('userid'));
    const leaving = userid === user.userid;
    if (!leaving && !isAdmin(user) && team.owner !== user.userid) {
      throw forbidden('Only the team owner or an admin removes other members');
    }
    if (userid === null || !isMember(ctx.db, team.teamid, userid)) throw notFound('No such member of this team');
    ctx.db.transaction(() => {
      removeMembers(ctx.db, team.teamid, [userid]);
      recordMutation(ctx, c, 'team', team.teamid);
    })();
    return c.json(members(ctx.db, team.teamid, 'ASC', siteOrigin(c)));
  });
};
