import type { ActionKind } from '../payloads.ts';
import type { Handler } from '../replay-context.ts';
import { replayDoublesCheck } from './doubles-check.ts';
import { replayQuizAttempt } from './quiz-attempt.ts';
import { replayStart } from './start.ts';
import { replayStepData } from './step-data.ts';
import { replayTransition } from './transition.ts';
import { replayUpload } from './upload.ts';

/** One handler per action kind: what the runner calls to replay it (a new kind is one line here). */
export const HANDLERS: { [K in ActionKind]: Handler<never> } = {
  start: replayStart as Handler<never>,
  pause: replayTransition('pause') as Handler<never>,
  resume: replayTransition('resume') as Handler<never>,
  suspend: replayTransition('suspend') as Handler<never>,
  assume: replayTransition('assume') as Handler<never>,
  finish: replayTransition('finish') as Handler<never>,
  cancel: replayTransition('cancel') as Handler<never>,
  stepData: replayStepData as Handler<never>,
  upload: replayUpload as Handler<never>,
  quizAttempt: replayQuizAttempt as Handler<never>,
  doubles: replayDoublesCheck as Handler<never>,
};
