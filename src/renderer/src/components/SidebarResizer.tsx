import { useEffect, useState } from 'react';
import { clampSidebarWidth, loadSidebarWidth, saveSidebarWidth, SIDEBAR_DEFAULT_PX, SIDEBAR_MAX_PX, SIDEBAR_MIN_PX, SIDEBAR_STEP_PX } from '../model/sidebar-width';

/** The sidebar width, applied as --sidebar-width on the layout and remembered (model/sidebar-width). */
export function useSidebarWidth(): [number, (px: number) => void] {
  const [width, setWidth] = useState(loadSidebarWidth);
  useEffect(() => saveSidebarWidth(width), [width]);
  return [width, (px) => setWidth(clampSidebarWidth(px))];
}

/** A vertical separator between the panes: drag it, or focus it and use ←/→ (Home resets). */
export function SidebarResizer({ width, onResize }: { width: number; onResize: (px: number) => void }) {
  return (
    <div
      className="sidebar-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the sidebar"
      aria-valuenow={width}
      aria-valuemin={SIDEBAR_MIN_PX}
      aria-valuemax={SIDEBAR_MAX_PX}
      tabIndex={0}
      data-testid="sidebar-resizer"
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft') onResize(width - SIDEBAR_STEP_PX);
        else if (event.key === 'ArrowRight') onResize(width + SIDEBAR_STEP_PX);
        else if (event.key === 'Home') onResize(SIDEBAR_DEFAULT_PX);
        else return;
        event.preventDefault();
      }}
      onPointerDown={(event) => {
        const startX = event.clientX;
        const startWidth = width;
        const target = event.currentTarget;
        target.setPointerCapture(event.pointerId);
        const move = (e: PointerEvent) => onResize(startWidth + e.clientX - startX);
        const up = () => {
          target.removeEventListener('pointermove', move);
          target.removeEventListener('pointerup', up);
        };
        target.addEventListener('pointermove', move);
        target.addEventListener('pointerup', up);
      }}
    />
  );
}
