import { useEffect, useState } from 'react';
import { useSidebarState } from 'react-admin';

export const MOBILE_BREAKPOINT = 1024;
const TOLERANCE = 3;

/** Mobile below 1024 px width, with 3 px of tolerance (docs/product-rules.md#screens-and-routes). */
export const isMobileWidth = (width: number) => width - TOLERANCE < MOBILE_BREAKPOINT;

/** Whether the layout is in mobile mode; switching into it closes the sidebar. */
export function useMobileMode(): boolean {
  const [mobile, setMobile] = useState(() => isMobileWidth(window.innerWidth));
  const [, setSidebarOpen] = useSidebarState();
  useEffect(() => {
    const onResize = () => {
      const next = isMobileWidth(window.innerWidth);
      setMobile((was) => {
        if (next && !was) setSidebarOpen(false);
        return next;
      });
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setSidebarOpen]);
  return mobile;
}
