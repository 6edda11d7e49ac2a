/** The requests of one sync, grouped the way the sync issues them, for the transfer floor to replay. */
export interface RequestPlan {
  /** Sequential: listing pages, category tree, deletion checks. */
  sequential: string[];
  /** Per guide: its parallel requests, then its quiz revisions one by one. */
  guides: { parallel: string[]; then: string[] }[];
  /** Media downloads. */
  media: string[];
  concurrency: { guides: number; media: number };
}

const GUIDE_PARTS = [
  /\/guides\/(\d+)$/,
  /\/guides\/(\d+)\/tags$/,
  /\/step_forms\/guideid\/(\d+)$/,
  /\/quizzes\/associations\/(\d+)$/,
];

export function buildPlan(
  requests: { url: string; phase: string }[],
  concurrency: RequestPlan['concurrency'],
): RequestPlan {
  const plan: RequestPlan = { sequential: [], guides: [], media: [], concurrency };
  const byGuide = new Map<string, { parallel: string[]; then: string[] }>();
  let lastGuide: { parallel: string[]; then: string[] } | undefined;
  for (const { url } of requests) {
    const path = new URL(url).pathname;
    // Media by their address (anything outside the API), not by the progress phase: progress events are
    // throttled, so the first downloads were recorded under the guides phase and replayed one at a time.
    if (!path.includes('/api/2.0/')) {
      plan.media.push(url);
      continue;
    }
    const id = GUIDE_PARTS.map((re) => re.exec(path)?.[1]).find((m) => m !== undefined);
    if (id !== undefined) {
      let group = byGuide.get(id);
      if (!group) {
        group = { parallel: [], then: [] };
        byGuide.set(id, group);
        plan.guides.push(group);
      }
      group.parallel.push(url);
      lastGuide = group;
    } else if (/\/quizzes\/\d+$/.test(path) && lastGuide) {
      lastGuide.then.push(url);
    } else {
      plan.sequential.push(url);
    }
  }
  return plan;
}
