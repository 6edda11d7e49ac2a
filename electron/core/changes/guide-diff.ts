import { decodeHTML } from 'entities';
import type { GuideDetail, GuideStep, StepChange } from '../../contract.ts';

// What changed between two stored revisions of a guide, step by step, for the banner: pure, offline.
// Steps are matched by `stepid` (stable across revisions on API 2.0 sites); lines are compared as the
// text a technician reads, so markup alone is no change.

/**
 * The text of a line's server HTML, for comparing and for showing as plain text (never as HTML). Every
 * entity is read (the `entities` package, HTML's own table: a site writes `&#38;` as well as `&amp;`, and
 * the banner showed "&#38;"), and only what is a tag is taken out: a `<` before a number or a space is text
 * ("the tank <15 psi … > see step 6" lost everything between the two).
 */
export function plainText(html: string): string {
  return decodeHTML(html.replace(/<\/?[a-zA-Z][^<>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** A line's icon said in words, as the guide shows it beside the line: a caution read as plain text is named. */
const ICON_WORDS: Readonly<Record<string, string>> = {
  icon_caution: 'Caution',
  icon_note: 'Note',
  icon_reminder: 'Reminder',
};

const ownSteps = (guide: GuideDetail): GuideStep[] => guide.steps.filter((s) => s.guideid === guide.guideid);
const lines = (step: GuideStep): string[] =>
  step.lines.flatMap((line) => {
    const text = plainText(line.textRendered);
    const icon = ICON_WORDS[line.bullet];
    return text === '' ? [] : [icon ? `${icon}: ${text}` : text];
  });
const fields = (step: GuideStep): { fieldGuid: string; label: string }[] =>
  (step.form?.fields ?? []).map((f) => ({ fieldGuid: f.fieldGuid, label: f.label || f.type }));
/** The labels of `of`'s fields that `other` does not have (by field_guid: a renamed field is the same field). */
const fieldsNotIn = (of: GuideStep, other: GuideStep | null): string[] =>
  fields(of)
    .filter((f) => !other || !fields(other).some((o) => o.fieldGuid === f.fieldGuid))
    .map((f) => f.label);
const pictures = (step: GuideStep): number[] => (step.media.type === 'image' ? step.media.images.map((i) => i.id) : []);

/** Each of `after` not in `before`, as many times as it is missing (a line written twice counts twice). */
function missingFrom(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((item) => {
    const at = left.indexOf(item);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/** The fields both have (by field_guid) under another label now. */
const renamed = (was: GuideStep, now: GuideStep): { from: string; to: string }[] =>
  fields(now).flatMap((f) => {
    const before = fields(was).find((o) => o.fieldGuid === f.fieldGuid);
    return before && before.label !== f.label ? [{ from: before.label, to: f.label }] : [];
  });

export function guideDiff(before: GuideDetail, after: GuideDetail): StepChange[] {
  const old = ownSteps(before);
  const now = ownSteps(after);
  const changes: StepChange[] = [];
  now.forEach((step, index) => {
    const was = old.find((s) => s.stepid === step.stepid);
    const title = step.title;
    if (!was) {
      changes.push({
        kind: 'added',
        number: index + 1,
        title,
        addedLines: lines(step),
        removedLines: [],
        newPictures: pictures(step).length,
        addedFields: fieldsNotIn(step, null),
        removedFields: [],
        renamedFields: [],
      });
      return;
    }
    const addedLines = missingFrom(lines(was), lines(step));
    const removedLines = missingFrom(lines(step), lines(was));
    const newPictures = pictures(step).filter((id) => !pictures(was).includes(id)).length;
    // The record's changes too: a field dropped takes the technician's value there off the site's form.
    const [addedFields, removedFields] = [fieldsNotIn(step, was), fieldsNotIn(was, step)];
    const renamedFields = renamed(was, step);
    const changed =
      addedLines.length +
      removedLines.length +
      newPictures +
      addedFields.length +
      removedFields.length +
      renamedFields.length;
    if (changed > 0 || was.title !== step.title)
      changes.push({
        kind: 'changed',
        number: index + 1,
        title,
        addedLines,
        removedLines,
        newPictures,
        addedFields,
        removedFields,
        renamedFields,
      });
  });
  old.forEach((step, index) => {
    if (!now.some((s) => s.stepid === step.stepid))
      changes.push({
        kind: 'removed',
        number: index + 1,
        title: step.title,
        addedLines: [],
        removedLines: lines(step),
        newPictures: 0,
        addedFields: [],
        removedFields: fieldsNotIn(step, null),
        renamedFields: [],
      });
  });
  return changes;
}
