import type { PublishModuleType } from '@media/contract';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';

export type ModuleNodeData = {
  label: string;
  type: PublishModuleType | null;
  /** Source nodes take no input; post nodes feed nothing. */
  hasInput: boolean;
  hasOutput: boolean;
};
export type ModuleFlowNode = Node<ModuleNodeData, 'module'>;

/** Mantine palette names by module type; an unknown module is red. */
export const TYPE_COLOURS: Record<PublishModuleType | 'unknown', string> = {
  source: 'teal',
  process: 'blue',
  destination: 'grape',
  post: 'orange',
  unknown: 'red',
};

/** One network node: a 100x50 box (spec3 §9) named by its module, coloured by its module type. */
export const ModuleNode = ({ data, selected, isConnectable }: NodeProps<ModuleFlowNode>) => {
  const colour = TYPE_COLOURS[data.type ?? 'unknown'];
  return (
    <div
      data-module-type={data.type ?? 'unknown'}
      style={{
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        padding: 4,
        fontSize: 12,
        lineHeight: 1.2,
        overflow: 'hidden',
        borderRadius: 6,
        background: `var(--mantine-color-${colour}-light)`,
        border: `${selected ? 3 : 1}px solid var(--mantine-color-${colour}-filled)`,
        color: 'var(--mantine-color-text)',
      }}
    >
      {data.hasInput && <Handle type="target" position={Position.Left} isConnectable={isConnectable} />}
      {data.label}
      {data.hasOutput && <Handle type="source" position={Position.Right} isConnectable={isConnectable} />}
    </div>
  );
};
