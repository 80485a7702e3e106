import { useEffect, useId, useRef, useState, type ReactElement, cloneElement } from 'react';
import { TOOLTIP_DELAY_MS } from './sidebar-state';

/**
 * A label shown beside a collapsed sidebar icon after 700 ms of hover or keyboard focus (spec.md
 * 2.2), hidden on leave, blur or Escape. The icon link keeps its own accessible name; the tooltip
 * repeats it for sighted mouse users.
 */
export function NavTooltip({ label, enabled, children }: { label: string; enabled: boolean; children: ReactElement<Record<string, unknown>> }) {
  const [visible, setVisible] = useState(false);
  // Hidden as soon as the sidebar expands (adjusted while rendering, not in an effect).
  const [wasEnabled, setWasEnabled] = useState(enabled);
  if (enabled !== wasEnabled) {
    setWasEnabled(enabled);
    if (!enabled) setVisible(false);
  }
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = useId();

  const clear = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  const show = () => {
    clear();
    timer.current = setTimeout(() => setVisible(true), TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    clear();
    setVisible(false);
  };
  useEffect(() => clear, []);
  // A pending show timer must not fire once the sidebar expanded.
  useEffect(() => {
    if (!enabled && timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
  }, [enabled]);

  if (!enabled) return children;
  return (
    <div
      className="relative"
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => {
        if (e.key === 'Escape') hide();
      }}
    >
      {cloneElement(children, { 'aria-describedby': visible ? id : undefined })}
      {visible && (
        <span
          id={id}
          role="tooltip"
          className="pointer-events-none absolute left-full top-1/2 z-50 ml-2 -translate-y-1/2 whitespace-nowrap rounded-md bg-slate-900 px-2 py-1 text-xs font-medium text-white shadow"
        >
          {label}
        </span>
      )}
    </div>
  );
}
