/** "1 guide", "3 guides": the core's messages and the screens count alike (never "action(s)"). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}
