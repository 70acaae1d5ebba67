import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * The columns a list table leaves out so that it fits its area (WCAG 1.4.10, reflow): with real
 * Chinese glyphs and a long title a table of every column ran past the screen, cutting the row
 * actions. `dropOrder` names the columns that may go, the least needed first; they go one at a
 * time until the table fits, and all come back to be tried again when the area grows. What a row
 * leaves out its record screen still shows.
 */
export function useFittingColumns(dropOrder: readonly string[]) {
  const ref = useRef<HTMLDivElement>(null);
  const [dropped, setDropped] = useState(0);
  const [look, setLook] = useState(0);
  const lastWidth = useRef(0);

  useLayoutEffect(() => {
    const box = ref.current;
    const table = box?.querySelector('table');
    if (!box || !table) return;
    if (table.scrollWidth > box.clientWidth + 1 && dropped < dropOrder.length) setDropped(dropped + 1);
  }, [dropped, look, dropOrder.length]);

  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    let frame = 0;
    const look = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setLook((n) => n + 1));
    };
    // a browser without ResizeObserver (jsdom in the client tests) measures nothing: every column shows
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => {
      const width = box.clientWidth;
      if (lastWidth.current && width > lastWidth.current + 1) setDropped(0);
      lastWidth.current = width;
      look();
    });
    resized?.observe(box);
    // rows arriving (or a longer title after a page turn) widen the table without resizing the box
    const changed = new MutationObserver(look);
    changed.observe(box, { childList: true, subtree: true, characterData: true });
    return () => {
      cancelAnimationFrame(frame);
      resized?.disconnect();
      changed.disconnect();
    };
  }, []);

  const hidden = new Set(dropOrder.slice(0, dropped));
  return { ref, shows: (name: string) => !hidden.has(name) };
}
