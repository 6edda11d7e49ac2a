import { describe, expect, it } from 'vitest';
import { describeResource } from '../../electron/core/api/errors.ts';
import { isGuide, resourceOf } from '../../electron/core/api/resource.ts';

// Issue 27: what a request asked for is parsed once into a structured resource; decisions compare those
// (a guide's 404 is that guide's only when it was the guide itself that was asked), never path strings.
describe('resources of requests', () => {
  it('names what each request asked for', () => {
    expect(resourceOf('GET /guides/12')).toEqual({ kind: 'guide', id: 12, part: 'whole' });
    expect(resourceOf('GET /guides/12?langid=de')).toEqual({ kind: 'guide', id: 12, part: 'whole' });
    expect(resourceOf('GET /guides/12/tags')).toEqual({ kind: 'guide', id: 12, part: 'tags' });
    expect(resourceOf('GET /step_forms/guideid/7')).toEqual({ kind: 'guide', id: 7, part: 'step-forms' });
    expect(resourceOf('GET /guides')).toEqual({ kind: 'guides' });
    expect(resourceOf('GET /media/videos/3')).toEqual({ kind: 'video', id: 3 });
    expect(resourceOf('POST /work_log/41/pause')).toEqual({ kind: 'work-log', entryid: 41 });
    expect(resourceOf('GET /work_log')).toEqual({ kind: 'work-log', entryid: null });
    expect(resourceOf('POST /user/token')).toEqual({ kind: 'sign-in' });
    expect(resourceOf('GET /suggest/pump')).toEqual({ kind: 'search' });
    expect(resourceOf('GET https://cdn.example.com/a.jpg')).toEqual({ kind: 'media' });
    expect(resourceOf('GET /tags')).toEqual({ kind: 'other' });
  });

  it('tells a guide asked for itself from its tags, forms or another guide', () => {
    expect(isGuide(resourceOf('GET /guides/12'), 12)).toBe(true);
    expect(isGuide(resourceOf('GET /guides/12/tags'), 12)).toBe(false);
    expect(isGuide(resourceOf('GET /guides/120'), 12)).toBe(false);
  });

  it('says the resource in words for messages', () => {
    expect(describeResource('GET /guides/12/tags')).toBe('for the tags of guide 12');
    expect(describeResource('GET /guides/12')).toBe('for guide 12');
    expect(describeResource('POST /quizzes/getQuizzes')).toBe('for the quizzes');
    expect(describeResource('GET /tags')).toBe('to a request');
  });
});
