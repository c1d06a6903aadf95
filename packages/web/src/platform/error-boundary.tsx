import { Component, type ErrorInfo as ReactErrorInfo, type ReactNode } from 'react';
import { ErrorBlock } from './error-block.tsx';

interface Props {
  children: ReactNode;
}
interface State {
  error: unknown;
}

/** Last line of defence above the router: a crash outside any route still shows the error block. */
export class AppErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ReactErrorInfo): void {
    console.error('Unhandled error', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error !== null) {
      return (
        <main style={{ maxWidth: 640, margin: '48px auto', padding: 16 }}>
          <h1 style={{ fontSize: 22 }}>Guildhall could not start this page</h1>
          <ErrorBlock error={this.state.error} retryLabel="Reload" onRetry={() => window.location.reload()} />
        </main>
      );
    }
    return this.props.children;
  }
}
