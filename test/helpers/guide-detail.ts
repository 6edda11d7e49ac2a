import type { GuideDetail } from '../../electron/contract.ts';

/** A guide with no steps, parts or media: what a test stores when only the guide's row matters. */
export const bareGuide = (guideid: number): GuideDetail => ({
  guideid,
  revisionid: 1,
  title: `Guide ${guideid}`,
  category: guideid % 2 ? 'Compressors' : 'Forklifts',
  subject: '',
  type: 'repair',
  difficulty: null,
  timeRequired: null,
  timeRange: null,
  author: null,
  image: null,
  introductionRendered: '',
  conclusionRendered: '',
  flags: [],
  parts: [],
  tools: [],
  prerequisites: [],
  documents: [],
  steps: [],
  tags: [],
  quizzes: [],
  modifiedDate: 1_700_000_000 + guideid,
  url: null,
});
