import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Categoria(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CATEGORIA_UNSPECIFIED: _ClassVar[Categoria]
    CATEGORIA_QUER_AGENDAR: _ClassVar[Categoria]
    CATEGORIA_QUER_REMARCAR: _ClassVar[Categoria]
    CATEGORIA_QUER_CANCELAR: _ClassVar[Categoria]
    CATEGORIA_PERGUNTA_PRECO: _ClassVar[Categoria]
    CATEGORIA_OBJECAO_PRECO: _ClassVar[Categoria]
    CATEGORIA_DESISTIU: _ClassVar[Categoria]
    CATEGORIA_PEDE_HUMANO: _ClassVar[Categoria]
    CATEGORIA_PEDE_INFORMACAO: _ClassVar[Categoria]
    CATEGORIA_CONFIRMOU: _ClassVar[Categoria]
    CATEGORIA_OPT_OUT: _ClassVar[Categoria]
    CATEGORIA_RECLAMACAO: _ClassVar[Categoria]
CATEGORIA_UNSPECIFIED: Categoria
CATEGORIA_QUER_AGENDAR: Categoria
CATEGORIA_QUER_REMARCAR: Categoria
CATEGORIA_QUER_CANCELAR: Categoria
CATEGORIA_PERGUNTA_PRECO: Categoria
CATEGORIA_OBJECAO_PRECO: Categoria
CATEGORIA_DESISTIU: Categoria
CATEGORIA_PEDE_HUMANO: Categoria
CATEGORIA_PEDE_INFORMACAO: Categoria
CATEGORIA_CONFIRMOU: Categoria
CATEGORIA_OPT_OUT: Categoria
CATEGORIA_RECLAMACAO: Categoria

class DeclaracaoDoTurno(_message.Message):
    __slots__ = ("intencoes", "promessas", "nada_a_declarar")
    INTENCOES_FIELD_NUMBER: _ClassVar[int]
    PROMESSAS_FIELD_NUMBER: _ClassVar[int]
    NADA_A_DECLARAR_FIELD_NUMBER: _ClassVar[int]
    intencoes: _containers.RepeatedCompositeFieldContainer[Intencao]
    promessas: _containers.RepeatedCompositeFieldContainer[Promessa]
    nada_a_declarar: bool
    def __init__(self, intencoes: _Optional[_Iterable[_Union[Intencao, _Mapping]]] = ..., promessas: _Optional[_Iterable[_Union[Promessa, _Mapping]]] = ..., nada_a_declarar: _Optional[bool] = ...) -> None: ...

class Intencao(_message.Message):
    __slots__ = ("o_que", "evidencia", "categoria")
    O_QUE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCIA_FIELD_NUMBER: _ClassVar[int]
    CATEGORIA_FIELD_NUMBER: _ClassVar[int]
    o_que: str
    evidencia: str
    categoria: Categoria
    def __init__(self, o_que: _Optional[str] = ..., evidencia: _Optional[str] = ..., categoria: _Optional[_Union[Categoria, str]] = ...) -> None: ...

class Promessa(_message.Message):
    __slots__ = ("o_que", "prazo")
    O_QUE_FIELD_NUMBER: _ClassVar[int]
    PRAZO_FIELD_NUMBER: _ClassVar[int]
    o_que: str
    prazo: _timestamp_pb2.Timestamp
    def __init__(self, o_que: _Optional[str] = ..., prazo: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
