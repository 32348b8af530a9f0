import { useEffect, useState } from 'react';

/**
 * False for a dialog's first frame, then true: its frame (title, close button) is drawn with the
 * click's own commit and its heavier body the frame after, so a busy machine still answers at once.
 */
export function useAfterFirstFrame() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const id = requestAnimationFrame(() => setReady(true));
    return () => cancelAnimationFrame(id);
  }, []);
  return ready;
}
