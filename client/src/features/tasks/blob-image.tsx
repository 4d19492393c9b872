import { useEffect, useState } from 'react';
import classes from './tasks.module.css';

/** An image from a Blob (its object URL freed when it goes). */
export function BlobImage(props: { readonly blob: Blob; readonly alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(props.blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [props.blob]);
  return url === null ? null : <img src={url} alt={props.alt} className={classes.thumb} />;
}
