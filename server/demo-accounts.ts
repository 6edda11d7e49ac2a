import type { Privilege } from './users/repo.ts';

export interface DemoAccount {
  readonly email: string;
  readonly password: string;
  readonly username: string;
  readonly unique_username: string;
  readonly privileges: readonly Privilege[];
}

/** The demo workshop's people (DESIGN.md §9). Tests and screenshots read names from here. */
export const DEMO_ACCOUNTS = {
  admin: {
    email: 'admin@demo.test',
    password: 'fieldguide',
    username: 'Morgan Reyes',
    unique_username: 'morganreyes',
    privileges: ['Admin'],
  },
  author: {
    email: 'author@demo.test',
    password: 'fieldguide',
    username: 'Priya Natarajan',
    unique_username: 'priyan',
    privileges: ['Author'],
  },
  tech1: {
    email: 'tech1@demo.test',
    password: 'fieldguide',
    username: 'Sam Okafor',
    unique_username: 'samokafor',
    privileges: ['User'],
  },
  tech2: {
    email: 'tech2@demo.test',
    password: 'fieldguide',
    username: 'Jordan Lindqvist',
    unique_username: 'jlindqvist',
    privileges: ['User'],
  },
} as const satisfies Record<string, DemoAccount>;

export type DemoAccountName = keyof typeof DEMO_ACCOUNTS;

export const DEMO_TEAM = {
  name: 'Workshop Crew',
  description: 'Field technicians of the demo workshop',
  members: ['tech1', 'tech2'],
} as const;
