"""The classes of VASSAL's engine, by package: what a buildFile element may name without the
module shipping its own code (check ``buildfile.unknown_class``).

Listed from VASSAL 3.6.0's Vengine.jar (the engine of tools/vassal-oracle), top-level classes only.
A class of a later VASSAL is not here: lint says so as information, naming the version the module
was written with, rather than calling it an error.
"""

from __future__ import annotations

__all__ = ["ENGINE_VERSION", "is_vassal_class"]

ENGINE_VERSION = "3.6.0"

_CLASSES: dict[str, str] = {
    "VASSAL": ("Info"),
    "VASSAL.build": (
        "AbstractBuildable AbstractConfigurable AbstractFolder AbstractToolbarItem "
        "AutoConfigurable BadDataReport Buildable Builder Configurable GameModule GpIdChecker "
        "GpIdSupport IllegalBuildException PropertyProducer Widget"
    ),
    "VASSAL.build.module": (
        "BasicCommandEncoder BasicLogger ChartWindow Chatter ChessClockControl ConnectionWindow "
        "Console ConsoleAppender DiceButton DieManager DieRoll DoActionButton Documentation "
        "EventLog ExtensionElement ExtensionsLoader ExtensionsManager GameComponent GameRefresher "
        "GameSetupStep GameState GlobalKeyCommand GlobalOptions InternetDiceButton Inventory "
        "KeyNamer Map ModuleExtension ModulePlugin MultiActionButton MultiRoll NewGameIndicator "
        "NotesWindow ObscurableOptions PieceWindow PlayerHand PlayerRoster Plugin PluginsLoader "
        "PredefinedSetup PrivateMap PrototypeDefinition PrototypesContainer RandomTextButton "
        "ServerConnection SpecialDiceButton SpecialDie SpecialDieFace StartupGlobalKeyCommand "
        "ToolbarMenu WizardSupport"
    ),
    "VASSAL.build.module.chessclockcontrol": ("ChessClock"),
    "VASSAL.build.module.dice": ("BonesDiceServer DieServer RollSet ShadowDiceDieServer"),
    "VASSAL.build.module.documentation": (
        "AboutScreen BrowserHelpFile BrowserPDFFile DialogHelpWindow HelpFile HelpWindow HelpWindowExtension Tutorial"
    ),
    "VASSAL.build.module.folder": ("DeckSubFolder GlobalPropertyFolder MapSubFolder ModuleSubFolder PrototypeFolder"),
    "VASSAL.build.module.gamepieceimage": (
        "ColorManager ColorSwatch ColorSwatchConfigurer FontConfigurer FontManager FontStyle "
        "FontStyleConfigurer GamePieceImage GamePieceImageDefinitions GamePieceLayout "
        "GamePieceLayoutsContainer ImageItem ImageItemInstance InstanceConfigurer Item "
        "ItemInstance LayoutConfigurer NewColorConfigurer OutlineFont ShapeItem ShapeItemInstance "
        "SizeConfigurer StringEnumConfigurer SwatchComboBox Symbol SymbolConfigurer SymbolItem "
        "SymbolItemInstance TextBoxItem TextBoxItemInstance TextItem TextItemInstance "
        "Visualizable Visualizer"
    ),
    "VASSAL.build.module.map": (
        "BoardPicker CompoundPieceCollection CounterDetailViewer DeckGlobalKeyCommand "
        "DefaultPieceCollection DrawPile Drawable Flare ForwardToChatter ForwardToKeyBuffer "
        "GlobalMap HandMetrics HidePiecesButton HighlightLastMoved ImageSaver KeyBufferer "
        "LOS_Thread LayerControl LayeredPieceCollection MapCenterer MapShader MassKeyCommand "
        "MenuDisplayer MovementReporter PieceCollection PieceMover PieceRecenterer Scroller "
        "SelectionHighlighter SelectionHighlighters SetupStack SimplePieceCollection SmallList "
        "StackExpander StackMetrics TextSaver Zoomer"
    ),
    "VASSAL.build.module.map.boardPicker": ("Board BoardSlot"),
    "VASSAL.build.module.map.boardPicker.board": (
        "GeometricGrid GridEditor GridOp HexGrid MapGrid Region RegionGrid SolidColorOp SquareGrid ZonedGrid"
    ),
    "VASSAL.build.module.map.boardPicker.board.mapgrid": (
        "GridContainer GridNumbering HexGridNumbering PolygonEditor RegularGridNumbering "
        "SquareGridNumbering Zone ZoneHighlight ZonedGridHighlighter"
    ),
    "VASSAL.build.module.map.deck": (
        "AbstractDeckKeyCommand DeckKeyCommand DeckSendKeyCommand DeckSortKeyCommand "
        "SortParameter SortParameterArrayConfigurer SortParameterComparator "
        "SortParameterConfigurer"
    ),
    "VASSAL.build.module.metadata": (
        "AbstractMetaData ExtensionMetaData ImportMetaData MetaDataFactory ModuleMetaData SaveMetaData"
    ),
    "VASSAL.build.module.noteswindow": (
        "AddSecretNoteCommand PrivateNotesController PrivateText SecretNote SecretNotesController SetPrivateTextCommand"
    ),
    "VASSAL.build.module.properties": (
        "ChangePropertyButton ChangePropertyCommand ChangePropertyCommandEncoder "
        "EnumeratedPropertyPrompt GlobalProperties GlobalPropertiesContainer GlobalProperty "
        "GlobalTranslatableMessage GlobalTranslatableMessages IncrementProperty "
        "MutablePropertiesContainer MutableProperty NumericPropertyPrompt PropertyChanger "
        "PropertyChangerConfigurer PropertyNameSource PropertyPrompt PropertySetter "
        "PropertySource SumProperties TranslatableString TranslatableStringContainer ZoneProperty"
    ),
    "VASSAL.build.module.turn": ("CounterTurnLevel ListTurnLevel TurnComponent TurnGlobalHotkey TurnLevel TurnTracker"),
    "VASSAL.build.widget": (
        "BoxWidget CardSlot Chart HtmlChart ListWidget MapWidget PanelWidget PieceSlot TabWidget WidgetMap"
    ),
    "VASSAL.chat": (
        "AddressBookServerConfigurer CgiServerStatus ChatServerConnection ChatServerFactory "
        "CommandDecoder Compressor DummyClient DummyMessageServer DynamicClient HttpMessageServer "
        "HttpRequestWrapper HybridClient InviteCommand InviteEncoder LockableChatServerConnection "
        "LockableRoom MainRoomChecker MainRoomFilter MessageServer Player PlayerEncoder "
        "PlayerInfoWindow PlayerStatus PrivMsgCommand PrivateChatEncoder PrivateChatManager "
        "PrivateChatter Room ServerAddressBook ServerConfigurer ServerStatus SimplePlayer "
        "SimpleRoom SimpleStatus SoundEncoder SynchCommand SynchEncoder WelcomeMessageServer"
    ),
    "VASSAL.chat.messageboard": ("Message MessageBoard MessageBoardControls MessageViewer"),
    "VASSAL.chat.node": (
        "AsynchronousServerNode ConnectionLimiter LockWatcher LockableNodeRoomControls MsgSender "
        "Node NodeClient NodeClientFactory NodePlayer NodeRoom OfficialNodeClient "
        "OfficialNodeClientFactory PlayerNode PrivateNodeClient PrivateNodeClientFactory Protocol "
        "Server ServerNode SocketHandler SocketWatcher StatusReporter"
    ),
    "VASSAL.chat.peer2peer": (
        "AcceptPeerThread ClientTest DirectPeerPool EchoClient IpWatch P2PClient P2PClientFactory "
        "P2PPlayer PeerPool PeerPoolInfo RoomManager RoomTracker TextClient UnitTest"
    ),
    "VASSAL.chat.ui": (
        "BasicChatControlsInitializer ChatControlsInitializer ChatServerControls "
        "CurrentRoomActions InviteAction JoinRoomAction KickAction LockableRoomControls "
        "LockableRoomTreeRenderer MessageBoardControlsInitializer PlayerActionFactory "
        "PrivateMessageAction RoomActionFactory RoomInteractionControlsInitializer RoomTree "
        "RoomTreeRenderer SendSoundAction ServerStatusControlsInitializer ServerStatusView "
        "ServerWindowActions ShowProfileAction ShowServerStatusAction "
        "SimpleStatusControlsInitializer SynchAction"
    ),
    "VASSAL.command": (
        "AddPiece AlertCommand ChangePiece ChangeTracker Command CommandEncoder CommandFilter "
        "ConditionalCommand FlareCommand Logger MovePiece MoveTracker NullCommand "
        "PlayAudioClipCommand RemovePiece SetPersistentPropertyCommand"
    ),
    "VASSAL.configure": (
        "AbstractConfigurableListEntry AudioClipConfigurer AutoConfigurer "
        "BeanShellExpressionConfigurer BeanShellFunctionMenu BooleanConfigurer "
        "ChooseComponentDialog ChooseComponentPathDialog ColorConfigurer ComponentConfigPanel "
        "ComponentLayout CompoundValidityChecker ConfigurableList ConfigurableListController "
        "ConfigurableListEntry ConfigureTree Configurer ConfigurerFactory ConfigurerLayout "
        "ConfigurerPanel ConfigurerWindow DeckSelectionConfigurer DirectoryConfigurer "
        "DoubleConfigurer DynamicKeyCommandConfigurer DynamicKeyCommandListConfigurer "
        "EditContainedPiecesAction EditPropertiesAction ExtensionTree FileConfigurer "
        "FlareFormattedStringConfigurer FontConfigurer FormattedExpressionConfigurer "
        "FormattedStringArrayConfigurer FormattedStringConfigurer "
        "GamePieceFormattedStringConfigurer GlobalCommandTargetConfigurer HintTextField "
        "HotKeyConfigurer IconConfigurer ImageConfigurer ImageSelector IntConfigurer "
        "KeyModifiersConfigurer KeyStrokeArrayConfigurer ListConfigurer LongConfigurer "
        "MandatoryComponent NamedHotKeyConfigurer NamedKeyStrokeArrayConfigurer NoInsetButton "
        "NotNullConfigureName PasswordConfigurer PieceAccessConfigurer "
        "PlayerIdFormattedStringConfigurer PropertiesWindow PropertyExpression "
        "PropertyExpressionConfigurer PropertyNameExpressionConfigurer "
        "RefreshPredefinedSetupsDialog RemoveUnusedImagesDialog SaveAction SaveAsAction "
        "SavedGameUpdaterDialog ShowHelpAction SimpleConfigurer SingleChildInstance "
        "SoundConfigurer StringArrayConfigurer StringConfigurer StringEnum StringEnumConfigurer "
        "TableConfigurer TextConfigurer TranslatableStringEnum TranslatingStringEnumConfigurer "
        "ValidationReport ValidationReportDialog ValidityChecker VisibilityCondition"
    ),
    "VASSAL.configure.password": ("ToggleablePasswordConfigurer ToggleablePasswordFieldPanel"),
    "VASSAL.counters": (
        "ActionButton AreaCache AreaOfEffect BasicName BasicPiece BooleanAndPieceFilter "
        "BooleanOrPieceFilter BoundsTracker CalculatedProperty Clone ColoredBorder "
        "CounterGlobalKeyCommand CounterNames Deck DeckVisitor DeckVisitorDispatcher Decorator "
        "Delete Deselect DragBuffer DynamicProperty EditablePiece Embellishment Embellishment0 "
        "EventFilter Footprint FreeRotator GamePiece GlobalCommand GlobalCommandTarget "
        "GlobalHotKey Hideable Highlighter ImagePicker Immobilized KeyBuffer KeyCommand "
        "KeyCommandSubMenu KeySpecifier Labeler Marker MassPieceDefiner MassPieceLoader Mat "
        "MatCargo MatHolder MenuSeparator MovementMarkable MultiImagePicker NonRectangular "
        "Obscurable PieceAccess PieceCloner PieceDefiner PieceEditor PieceFilter PieceFinder "
        "PieceImage PieceIterator PieceSorter PieceVisitor PieceVisitorDispatcher Pivot "
        "PlaceMarker PlaySound PlayerAccess Properties PropertiesPieceFilter PropertyExporter "
        "PropertySheet RangeFilter Replace ReportState RestrictCommands Restricted ReturnToDeck "
        "SendToLocation SetGlobalProperty SideAccess SimplePieceEditor SpecifiedSideAccess Stack "
        "StateMergeable SubMenu TableInfo TraitConfigPanel TraitLayout TranslatableMessage "
        "Translate TriggerAction UsePrototype"
    ),
    "VASSAL.i18n": (
        "BundleHelper ComponentI18nData I18nResourcePathFinder Language LocaleConfigurer "
        "Localization PieceI18nData Resources Translatable TranslatableAttribute "
        "TranslatableConfigurerFactory TranslatableMarker TranslatablePiece TranslateAction "
        "TranslateVassalWindow TranslateWindow Translation VassalResourceBundle VassalTranslation"
    ),
    "VASSAL.launch": (
        "AboutVASSALAction AbstractLaunchAction BasicModule Config CreateModuleAction "
        "CustomVmOptions DummyConfig EditExtensionAction EditModuleAction Editor EditorWindow "
        "ExceptionHandler ExtensionEditorWindow FirstTimeDialog GameModuleAction "
        "JavaVersionChecker LaunchRequest LaunchRequestException LaunchRequestHandler "
        "LaunchTourAction Launcher LoadModuleAction MacOSXStartUp ModuleEditorWindow "
        "ModuleManager ModuleManagerMacOSXStartUp ModuleManagerMenuManager "
        "ModuleManagerSocketListener ModuleManagerUpdateHelper ModuleManagerWindow "
        "NewExtensionAction Player PlayerWindow SaveModuleAction SaveModuleAsAction "
        "ShutDownAction StandardConfig StartUp TileProgressPump TileProgressPumpStateMachine "
        "TilingHandler UpdateCheckRequest"
    ),
    "VASSAL.preferences": (
        "BasicPreference BooleanPreference DoublePreference EnumPreference GlobalPrefs "
        "IntegerPreference PositionOption Prefs PrefsEditor ReadOnlyPrefs StringPreference "
        "TextPreference VisibilityOption"
    ),
    "VASSAL.property": (
        "AbstractPropertyContainer ConcurrentPropertySupport PersistentPropertyContainer Property "
        "PropertyContainer PropertyListener PropertySupport SinglePropertyContainer"
    ),
    "VASSAL.script": (
        "AbstractInterpreter AbstractScript ActionScript BeanShell BshCommandEncoder BshPlugin "
        "CompileResult ExpressionInterpreter GeneralScript JavaNameConfigurer ScriptContainer "
        "ScriptInterpreter"
    ),
    "VASSAL.script.expression": (
        "AuditTrail Auditable AuditableException BeanShellExpression Expression ExpressionBuilder "
        "ExpressionException FormattedStringExpression FunctionBuilder IntBuilder IntExpression "
        "NullExpression PropertyExpressionBuilder PropertyMatchExpression "
        "PropertyNameExpressionBuilder SinglePropertyExpression StrBuilder StringExpression"
    ),
    "VASSAL.script.proxy": ("GamePiece Map Stack"),
    "VASSAL.search": ("AbstractImageFinder HTMLImageFinder ImageSearchTarget SearchTarget"),
    "VASSAL.tools": (
        "ActionManager AdjustableSpeedScrollPane ApplicationIcons ArchiveWriter ArgsParser "
        "ArrayIterator ArrayUtils AudioClip AudioSystemClip BackgroundTask BrowserSupport "
        "BugDialog BugUtils ButtonFactory CRCUtils ColorButton ComponentPathBuilder "
        "ComponentSplitter DataArchive DialogUtils EnumeratedIterator ErrorDialog FormattedString "
        "FutureUtils HTTPPostBuilder HashCode HeapFinderDummy HotkeySpecifier IconButton "
        "ImprovedAveragingScaleFilter IteratorUtils JarArchive KeyStrokeListener KeyStrokeSource "
        "LaunchButton LoopControl Mp3AudioClip NamedKeyManager NamedKeyStroke "
        "NamedKeyStrokeListener PlayerIdFormattedString Prioritizable ProblemDialog "
        "PropertiesEncoder QuickColors ReadErrorDialog RecursionLimitException RecursionLimiter "
        "ReflectionUtils ResourcePathFinder SavedGameUpdater ScrollPane SequenceEncoder Sort "
        "SplashScreen TemporaryToolBar ThrowableUtils ToolBarComponent URLUtils UniqueIdManager "
        "UsernameAndPasswordDialog WarningDialog WrapLayout WriteErrorDialog"
    ),
    "VASSAL.tools.bug": ("BugHandler"),
    "VASSAL.tools.concurrent": (
        "ConcurrentSoftHashMap CountingReadWriteLock DaemonThreadFactory Exec FutureUtils "
        "QueueJoiner RangedRunnable SettableFuture SettableRunnableFuture SimpleFuture "
        "SimpleRunnableFuture"
    ),
    "VASSAL.tools.concurrent.listener": (
        "DefaultEventListenerSupport DefaultMultiEventListenerSupport DotPrinter "
        "DummyEventListener EventAccumulator EventListener EventListenerSupport "
        "MultiEventListenerSupport"
    ),
    "VASSAL.tools.deprecation": (
        "DependencyChecker DependencyWalker DependencyWriter DeprecationWalker DeprecationWriter "
        "Processor RemovalAndDeprecationChecker Walker"
    ),
    "VASSAL.tools.filechooser": (
        "AudioFileFilter BMPFileFilter DirectoryFileFilter ExtensionFileFilter FileChooser "
        "FileFilter ImageFileFilter LogAndSaveFileFilter LogFileFilter ModuleExtensionFileFilter "
        "ModuleFileFilter PNGFileFilter"
    ),
    "VASSAL.tools.icon": ("IconFactory IconFamily"),
    "VASSAL.tools.image": (
        "BrokenImageException FallbackImageTypeConverter FileImageTypeConverter GeneralFilter "
        "ImageIOException ImageIOImageLoader ImageLoader ImageNotFoundException ImageTileSource "
        "ImageTypeConverter ImageUtils JPEGDecoder LabelUtils MemoryImageTypeConverter "
        "MultiResolutionRenderedImage PNGDecoder UnrecognizedImageTypeException"
    ),
    "VASSAL.tools.image.svg": ("SVGImageUtils SVGRenderer"),
    "VASSAL.tools.image.tilecache": (
        "FileArchiveImageTiler ImageTileDiskCache ImageToTiles ScaledTileTask "
        "TileNotFoundException TileSlicer TileSlicerImpl TileTask TileToImage TileUtils "
        "TilesToImage ZipFileImageTiler ZipFileImageTilerState"
    ),
    "VASSAL.tools.imageop": (
        "AbstractOpImpl AbstractTileOpImpl AbstractTiledOpImpl CropOp CropOpBitmapImpl "
        "GamePieceOp GamePieceOpImpl ImageOp ImageOpObserver ImageSourceOpBitmapImpl Op OpIcon "
        "OpMultiResolutionImage OrthoRotateOpBitmapImpl OwningOpMultiResolutionImage Repainter "
        "RotateOp RotateScaleOp RotateScaleOpBitmapImpl RotateScaleOpSVGImpl SVGOp ScaleOp "
        "ScaleOpBitmapImpl ScaleOpTiledBitmapImpl ScaledImagePainter SourceOp SourceOpBitmapImpl "
        "SourceOpDiskCacheBitmapImpl SourceOpSVGImpl SourceOpTiledBitmapImpl "
        "SourceTileOpBitmapImpl SourceTileOpSVGImpl"
    ),
    "VASSAL.tools.imports": ("FileFormatException ImportAction Importer"),
    "VASSAL.tools.imports.adc2": (
        "ADC2Module ADC2ModuleFileFilter ADC2Utils MapBoard MapBoardFileFilter SymbolSet SymbolSetFileFilter"
    ),
    "VASSAL.tools.io": (
        "ArgEncoding CompositeInputStream DeobfuscatingInputStream FastByteArrayOutputStream "
        "FileArchive FileStore FileUtils IOUtils InputOutputStreamPump InputStreamPump "
        "ObfuscatingOutputStream OutputStreamPump ProcessCallable ProcessLauncher ProcessWrapper "
        "RereadableInputStream Tailer TemporaryFileFactory ZipArchive ZipWriter"
    ),
    "VASSAL.tools.lang": ("Callback MemoryUtils Pair Reference"),
    "VASSAL.tools.logging": ("LogEntry LogListener LogPane LoggedOutputStream Logger ProcessIDConverter"),
    "VASSAL.tools.menu": (
        "AbstractParent AbstractProxy CheckBoxMenuItemProxy ChildProxy Functor MacOSXMenuManager "
        "MenuBarProxy MenuItemProxy MenuManager MenuMarker MenuProxy MenuScroller ParentProxy "
        "SeparatorProxy"
    ),
    "VASSAL.tools.opcache": ("AbstractOpImpl Op OpCache OpFailedException OpObserver"),
    "VASSAL.tools.swing": (
        "AboutWindow DataArchiveHTMLEditorKit DetailsButton DetailsDialog Dialogs EDT "
        "EDTExecutorService EDTRunnableFuture FlowLabel HTMLWindowHelper ProgressDialog "
        "Progressor SplitPane SwingUtils"
    ),
    "VASSAL.tools.version": (
        "AbstractUpdateCheckRequest GitProperties LiveVersionInfo UpdateCheckAction VersionInfo VersionUtils"
    ),
}
_KNOWN = frozenset(f"{pkg}.{name}" for pkg, names in _CLASSES.items() for name in names.split())


def is_vassal_class(name: str) -> bool:
    """Whether `name` is a class of VASSAL's engine (3.6.0)."""
    return name in _KNOWN
