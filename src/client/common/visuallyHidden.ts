/** Styles of a text read by a screen reader and not shown (a header cell that the layout makes obvious, a heading's context). */
export const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', margin: '-1px', padding: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } as const;
