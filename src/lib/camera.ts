/**
 * The computer's camera, as the run mode's photos and the scan to open use it: asked for only when the
 * technician opens it, let go as soon as it is done, and every refusal said in words they can act on.
 * `instead` is what they can do without it ("attach a photo from a file instead").
 */

/** Why the camera cannot be used, in words a technician can act on. */
export function cameraProblem(error: unknown, instead: string): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return `No camera was found on this computer: ${instead}.`;
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return `The camera was not allowed: allow it for Fieldguide, or ${instead}.`;
  if (name === 'NotReadableError') return `The camera is busy in another program: close it there, or ${instead}.`;
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return `The camera could not be started${detail}: ${instead}.`;
}

/** The window has no camera API at all (an insecure page, a locked-down browser). */
export function cameraMissing(instead: string): string | null {
  if (!navigator.mediaDevices?.getUserMedia) return `This window cannot use a camera: ${instead}.`;
  return null;
}

/** The camera's live picture, shown in `video` once it plays. Throws what getUserMedia throws. */
export async function startCamera(video: () => HTMLVideoElement | null, ready: () => Promise<void>) {
  const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: false });
  try {
    await ready();
    const element = video();
    if (element) {
      element.srcObject = stream;
      await element.play();
    }
    return stream;
  } catch (error) {
    stopCamera(stream);
    throw error;
  }
}

export function stopCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}
