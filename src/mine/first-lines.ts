/**
 * The first `count` items of a stream of lines, read ahead, and the whole stream again from its start:
 * what mining reads before it starts (the languages a history writes) without reading a file twice or
 * holding more than `count` lines. An array is only sliced; an iterator is read once.
 */
export async function readFirst<T>(
  lines: AsyncIterable<T> | Iterable<T>,
  count: number,
): Promise<{ readonly first: readonly T[]; readonly all: AsyncIterable<T> | Iterable<T> }> {
  if (Array.isArray(lines)) return { first: lines.slice(0, count), all: lines };
  if (Symbol.asyncIterator in lines) {
    const iterator = lines[Symbol.asyncIterator]();
    const first: T[] = [];
    let done = false;
    while (first.length < count) {
      const next = await iterator.next();
      if (next.done === true) {
        done = true;
        break;
      }
      first.push(next.value);
    }
    return { first, all: resumeAsync(first, done ? undefined : iterator) };
  }
  const iterator = lines[Symbol.iterator]();
  const first: T[] = [];
  let done = false;
  while (first.length < count) {
    const next = iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    first.push(next.value);
  }
  return { first, all: resume(first, done ? undefined : iterator) };
}

function* resume<T>(first: readonly T[], rest: Iterator<T> | undefined): Generator<T> {
  yield* first;
  if (rest === undefined) return;
  // The caller may stop early: the source is closed as iterating it directly would close it.
  try {
    for (let next = rest.next(); next.done !== true; next = rest.next()) yield next.value;
  } finally {
    rest.return?.();
  }
}

async function* resumeAsync<T>(first: readonly T[], rest: AsyncIterator<T> | undefined): AsyncGenerator<T> {
  yield* first;
  if (rest === undefined) return;
  try {
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}
